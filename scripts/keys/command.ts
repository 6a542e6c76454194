// What each command of `npm run keys` is, for the table in scripts/keys.ts to run it: its usage and
// help, the options it takes, its settings read from the command line before any key is reached (so
// that a mistake changes nothing), and its run on the keys that keys.ts found.
import type { ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { KeysTarget } from '#scripts/keys/target.ts';

/** A command line the command cannot run: said in its message, if it has one, then the usage line. */
export class UsageError extends Error {}

export type KeysCommand<
  Options extends ParseArgsOptionsConfig = ParseArgsOptionsConfig,
  Settings = unknown,
> = {
  /** Its part of the usage line, and its lines of --help. */
  usage: string;
  help: string;
  /** The options it takes besides --stage and --port; whether KEY_ID follows it (then it must). */
  options: Options;
  takesKeyId: boolean;
  /** Its settings, KEY_ID '' when there is none; a mistake in them is a UsageError or a KeysError. */
  read(line: {
    keyId: string;
    stage: string | undefined;
    values: ReturnType<typeof parseArgs<{ options: Options }>>['values'];
  }): Settings;
  run(target: KeysTarget, settings: Settings): Promise<void>;
};

/** A command, with the types of its options and settings inferred. */
export const keysCommand = <const Options extends ParseArgsOptionsConfig, Settings>(
  command: KeysCommand<Options, Settings>,
) => command;
