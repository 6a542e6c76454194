// `npm run keys -- <create | list | rotate | revoke | probe> ...`: manages API keys in a deployed
// stage's table (and its usage plan, for per-key limits), a DynamoDB the user names, a data directory's
// or a running local server's, saying which on stderr first. A plain key is printed once, by `create` or
// `rotate` (`probe` stores it in a secret, unprinted); a failure is one line, exit 1, nothing changed.
import { parseArgs } from 'node:util';
import { UsageError } from '#scripts/keys/command.ts';
import type { KeysCommand } from '#scripts/keys/command.ts';
import { create } from '#scripts/keys/commands/create.ts';
import { list } from '#scripts/keys/commands/list.ts';
import { probe } from '#scripts/keys/commands/probe.ts';
import { revoke } from '#scripts/keys/commands/revoke.ts';
import { rotate } from '#scripts/keys/commands/rotate.ts';
import { explainFailure, findKeys, whereHelp } from '#scripts/keys/target.ts';

/** The commands by name, in the order the usage line and --help give them. */
const COMMANDS = new Map<string, KeysCommand>(Object.entries({ create, list, rotate, revoke, probe }));
const EVERY_COMMAND = [...COMMANDS.values()];

/** The options of every command: where the keys are, and --help. */
const SHARED_OPTIONS = {
  stage: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const USAGES = EVERY_COMMAND.map((command) => command.usage).join(' | ');
const USAGE = `usage: npm run keys -- <${USAGES}> [--stage staging|production] [--port PORT]`;

const HELP = [
  USAGE,
  ...EVERY_COMMAND.map((command) => command.help),
  '  --port PORT          the running npm start on this port, when several run',
  whereHelp('Where the keys are'),
].join('\n');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A mistake in the command line: its message, if it has one, then the usage line. */
const usageMistake = (message?: string) => (message ? `keys: ${message}\n${USAGE}` : USAGE);
/** A failure, from here on, in one line. */
const failureLine = (error: unknown) => `keys: ${explainFailure(error)}`;

const DURATION_OPTIONS = new Set(['--expires', '--overlap']);

/**
 * `--overlap -1h` as `--overlap=-1h`: parseArgs takes a value that starts with a dash for an option
 * and says so in three lines; a negative duration deserves its own one-line answer.
 */
function joinDashedValues(args: string[]) {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const [arg = '', next] = [args[index], args[index + 1]];
    const dashed = DURATION_OPTIONS.has(arg) && next?.startsWith('-');
    joined.push(dashed ? `${arg}=${next}` : arg);
    if (dashed) index++;
  }
  return joined;
}

/** The command line, read once for all the commands; a mistake in it is its message and the usage. */
function readCommandLine() {
  const commandOptions = EVERY_COMMAND.flatMap((command) => Object.entries(command.options));
  try {
    return parseArgs({
      args: joinDashedValues(process.argv.slice(2)),
      allowPositionals: true,
      options: { ...Object.fromEntries(commandOptions), ...SHARED_OPTIONS },
    });
  } catch (error) {
    return fail(usageMistake((error as Error).message));
  }
}

const { values, positionals } = readCommandLine();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const [name = '', keyId = '', ...extra] = positionals;
const command = COMMANDS.get(name) ?? fail(usageMistake());
const takes = (option: string) =>
  Object.hasOwn(command.options, option) || Object.hasOwn(SHARED_OPTIONS, option);
if (extra.length > 0 || Boolean(keyId) !== command.takesKeyId || !Object.keys(values).every(takes))
  fail(usageMistake());

// The command's settings are read before anything is reached: a mistake in them changes nothing.
let settings: unknown;
try {
  settings = command.read({ keyId, stage: values.stage, values });
} catch (error) {
  fail(error instanceof UsageError ? usageMistake(error.message) : failureLine(error));
}
const target = await findKeys({ stage: values.stage, port: values.port }, process.env).catch(
  (error: unknown) => fail(failureLine(error)),
);
console.error(`keys: ${target.description}`);
try {
  await command.run(target, settings);
} catch (error) {
  console.error(failureLine(error));
  process.exitCode = 1;
} finally {
  await target.close();
}
