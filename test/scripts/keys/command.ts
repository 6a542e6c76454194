// `npm run keys` as a user runs it, to its end, for the tests of its commands: its whole output,
// its exit code and its first line on stderr (where it says which table it reached).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { runToEnd } from '#test/support/process.ts';

type Env = Record<string, string | undefined>;

/**
 * The AWS profile `standin`, written into `project`'s own config and credentials files: its services
 * are the stand-ins at `endpoints` (by the config's service names), its region one that no stage
 * has, so that a command reaching the right region shows it took the outputs'. The environment
 * returned makes it the only one: the test run's own region and credentials would win over it.
 */
export function standInProfile(project: string, endpoints: Record<string, string>): Env {
  const services = Object.entries(endpoints).map(([name, url]) => `${name} =\n  endpoint_url = ${url}`);
  const config = ['[profile standin]', 'region = ap-south-1', 'services = standin', '[services standin]'];
  writeFileSync(join(project, 'config'), [...config, ...services].join('\n'));
  writeFileSync(
    join(project, 'credentials'),
    '[standin]\naws_access_key_id = standin\naws_secret_access_key = standin\n',
  );
  return {
    AWS_CONFIG_FILE: join(project, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(project, 'credentials'),
    AWS_PROFILE: 'standin',
    AWS_REGION: undefined,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
  };
}

/**
 * One `npm run keys`. Nothing of the test run's own reaches it unless given: no data directory, no
 * PORT; it reads the records of the servers the tests run (PETSTORE_SERVERS_DIR).
 */
export async function keysIn(env: Env, args: string[], options: { cwd?: string } = {}) {
  const { code, output, stderr } = await runToEnd(
    'scripts/keys.ts',
    args,
    { PETSTORE_DATA_DIR: undefined, PORT: undefined, ...env },
    options,
  );
  expect(output).not.toMatch(/\n\s+at /);
  return { code, output, firstLine: stderr.split('\n')[0] };
}

/** The id and the plain key that `create` or `rotate` printed. */
export function issuedKey(output: string) {
  const [, id = '', key = ''] = /Issued (key_[0-9a-f]+) .*\n(psk_\S+)/.exec(output) ?? [];
  expect(key).toMatch(/^psk_/);
  return { id, key };
}

/** The status a GET /pets with this key gets from the server at `url`. */
export const statusOf = async (url: string, key: string) =>
  (await fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status;
