// `npm run keys` against the local server's data directory, then the server with those keys.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from '@jest/globals';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'petstore-keys-'));
afterEach(killScripts);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function keys(...args: string[]) {
  const run = runScript('bin/keys.ts', args, { PETSTORE_DATA_DIR: dataDir });
  const code = await run.exited;
  return { code, output: run.output() };
}

async function statusWith(key: string) {
  const server = runScript('local/start.ts', [], { PORT: '0', PETSTORE_DATA_DIR: dataDir });
  const url = await bannerUrl(server);
  const response = await fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
  server.child.kill('SIGTERM');
  await server.exited;
  return response.status;
}

it('creates a key shown once, lists it without the key, and revokes it', async () => {
  const created = await keys('create', '--name', 'store client');
  expect(created.code).toBe(0);
  const [, id, key] = /Issued (key_[0-9a-f]+) .*\n(psk_\S+)/.exec(created.output) ?? [];
  expect(key).toBeDefined();
  expect(await statusWith(key ?? '')).toBe(200);

  const listed = await keys('list');
  expect(listed.output).toMatch(new RegExp(`${id}\\s+\\S+\\s+active\\s+store client`));
  expect(listed.output).not.toContain(key);

  expect((await keys('revoke', id ?? '')).code).toBe(0);
  expect((await keys('list')).output).toMatch(new RegExp(`${id}\\s+\\S+\\s+revoked`));
  expect(await statusWith(key ?? '')).toBe(401);
});

it('fails with the usage line for an unknown command and with a message for an unknown id', async () => {
  const unknown = await keys('rotate');
  expect(unknown.code).toBe(1);
  expect(unknown.output).toContain('usage: npm run keys');
  const missing = await keys('revoke', 'key_missing');
  expect(missing.code).toBe(1);
  expect(missing.output).toContain('No key with id key_missing.');
});

it('refuses to start with a PETSTORE_API_KEY that was revoked in its data', async () => {
  const env = { PORT: '0', PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: 'k_revoked' };
  const first = runScript('local/start.ts', [], env);
  await bannerUrl(first);
  first.child.kill('SIGTERM');
  await first.exited;
  const id = /(key_[0-9a-f]+)\s+\S+\s+active\s+local \(PETSTORE_API_KEY\)/.exec(
    (await keys('list')).output,
  )?.[1];
  expect((await keys('revoke', id ?? '')).code).toBe(0);
  const second = runScript('local/start.ts', [], env);
  expect(await second.exited).toBe(1);
  expect(second.output()).toContain('PETSTORE_API_KEY was revoked in this table');
});
