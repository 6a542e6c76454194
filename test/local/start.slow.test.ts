// `npm start` as a user runs it: a child process on its own embedded DynamoDB.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath as fileUrlToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { LEGACY_PET_SHARDS } from '#local/dynamodb/table-layout.ts';
import { PET_SHARDS } from '#shared/store/table.ts';
import { bannerUrl as baseUrl, killScripts, runScript } from '#test/support/process.ts';

const start = (env: Record<string, string>) => runScript('local/start.ts', [], env);

afterEach(killScripts);

describe('npm start', () => {
  it('serves /v1 with PETSTORE_API_KEY, logs each request and stops cleanly on SIGTERM', async () => {
    const server = start({ PORT: '0', PETSTORE_API_KEY: 'k_test' });
    const url = await baseUrl(server);
    expect(server.output()).toContain(`curl -H 'Authorization: Bearer k_test' ${url}/v1/pets`);
    const response = await fetch(`${url}/v1/pets`, { headers: { Authorization: 'Bearer k_test' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('[]');
    const line = await server.waitFor(/^\{.*"path":"\/v1\/pets".*\}$/m);
    expect(JSON.parse(line[0])).toMatchObject({ method: 'GET', status: 200, requestId: expect.any(String) });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('issues and prints a key when PETSTORE_API_KEY is unset', async () => {
    const server = start({ PORT: '0' });
    const url = await baseUrl(server);
    const [, key] = await server.waitFor(/API key: +(psk_\S+)/);
    const response = await fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
  });

  it('says clearly that the port is taken, without a stack trace', async () => {
    const first = start({ PORT: '0', PETSTORE_API_KEY: 'k_test' });
    const port = new URL(await baseUrl(first)).port;
    const second = start({ PORT: port, PETSTORE_API_KEY: 'k_test' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(second.output()).not.toMatch(/\n\s+at /);
  });

  it.each([
    [
      'a short PETSTORE_CURSOR_SECRET',
      { PETSTORE_CURSOR_SECRET: 'short' },
      'petstore: PETSTORE_CURSOR_SECRET must be at least 32 characters long.',
    ],
    ['a bad PORT', { PORT: 'eighty' }, 'petstore: PORT must be a port number from 0 to 65535, not "eighty".'],
    [
      'a PORT out of range',
      { PORT: '70000' },
      'petstore: PORT must be a port number from 0 to 65535, not "70000".',
    ],
    [
      'a PETSTORE_API_KEY the authorizer would refuse',
      { PETSTORE_API_KEY: 'my key' },
      'petstore: PETSTORE_API_KEY must be visible ASCII characters without spaces: API Gateway refuses any other bearer token before the key is checked.',
    ],
    [
      'a bad PETSTORE_SEED',
      { PETSTORE_SEED: 'lots' },
      'petstore: PETSTORE_SEED must be a number of pets from 0 to 10000, not "lots".',
    ],
    [
      'a PETSTORE_DATA_DIR that is a file',
      { PETSTORE_DATA_DIR: fileUrlToPath(import.meta.url) },
      `petstore: PETSTORE_DATA_DIR ${fileUrlToPath(import.meta.url)} is a file, not a directory: choose a directory.`,
    ],
    [
      'a PETSTORE_TABLE_NAME DynamoDB would refuse',
      { PETSTORE_TABLE_NAME: 'bad name!' },
      'petstore: PETSTORE_TABLE_NAME must be 3 to 255 letters, digits, "_", "-" or "." (DynamoDB\'s rule), not "bad name!".',
    ],
    [
      'an unreachable DynamoDB',
      { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9' },
      'petstore: DynamoDB at http://127.0.0.1:9 is unreachable (connect ECONNREFUSED 127.0.0.1:9): start it, or unset AWS_ENDPOINT_URL_DYNAMODB for the embedded one.',
    ],
    [
      'PETSTORE_SEED on a table on AWS',
      {
        AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb.eu-west-1.amazonaws.com',
        PETSTORE_API_KEY: 'k_test',
        PETSTORE_SEED: '3',
      },
      'petstore: PETSTORE_SEED adds pets: not to a table on AWS.',
    ],
    [
      'a table on AWS without PETSTORE_API_KEY',
      { AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb.eu-west-1.amazonaws.com' },
      'petstore: could not start: set PETSTORE_API_KEY to an active key of table petstore-local: on AWS the server issues no key of its own (npm run keys -- create --stage <stage>).',
    ],
  ])('stops on %s with one line', async (_case, env, line) => {
    const server = start({ PORT: '0', ...env });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(line);
  });

  it('says in one line that a data directory is locked by another server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-'));
    try {
      const first = start({ PORT: '0', PETSTORE_DATA_DIR: dataDir });
      await baseUrl(first);
      const second = start({ PORT: '0', PETSTORE_DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.output().trim()).toBe(
        `petstore: PETSTORE_DATA_DIR ${dataDir} is in use by another server: stop that server first, or choose another directory.`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('seeds an empty table with PETSTORE_SEED: varied names and categories, every status', async () => {
    const server = start({ PORT: '0', PETSTORE_API_KEY: 'k_test', PETSTORE_SEED: '25' });
    const url = await baseUrl(server);
    expect(server.output()).toContain('Seeded 25 pets.');
    const headers = { Authorization: 'Bearer k_test' };
    const pets = (await (await fetch(`${url}/v1/pets?limit=100`, { headers })).json()) as Record<
      string,
      unknown
    >[];
    expect(pets).toHaveLength(25);
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(new Set(pets.map((pet) => pet.name)).size).toBeGreaterThan(10);
    expect(new Set(pets.map((pet) => pet.categoryId)).size).toBeGreaterThan(3);
    for (const status of ['available', 'pending', 'sold']) {
      const filtered = await fetch(`${url}/v1/pets?status=${status}&limit=100`, { headers });
      expect(((await filtered.json()) as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it('with a data directory, reuses its key across restarts, seeds only an empty table, and resets', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-'));
    const env = { PORT: '0', PETSTORE_DATA_DIR: dataDir, PETSTORE_SEED: '5' };
    async function run() {
      const server = start(env);
      const url = await baseUrl(server);
      const [, key] = await server.waitFor(/API key: +(psk_\S+)/);
      const pets = await fetch(`${url}/v1/pets?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
      server.child.kill('SIGTERM');
      await server.exited;
      return { key, count: ((await pets.json()) as unknown[]).length, output: server.output() };
    }
    try {
      const first = await run();
      expect(first).toMatchObject({ count: 5 });
      expect(first.output).toContain(`(new, kept in ${join(dataDir, 'petstore-local.api-key')})`);
      const second = await run();
      expect(second).toMatchObject({ key: first.key, count: 5 });
      expect(second.output).toContain('PETSTORE_SEED: the table has pets already, so none were added.');
      expect(second.output).toContain(`(kept in ${join(dataDir, 'petstore-local.api-key')})`);
      writeFileSync(join(dataDir, 'notes.txt'), 'mine');
      const reset = runScript('local/reset.ts', [dataDir], {});
      expect(await reset.exited).toBe(0);
      expect(reset.output()).toContain(`reset: emptied ${dataDir}`);
      expect(readdirSync(dataDir)).toEqual(['notes.txt']);
      const third = await run();
      expect(third.count).toBe(5);
      expect(third.key).not.toBe(first.key);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to reset a data directory a server holds, or without one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-'));
    try {
      const server = start({ PORT: '0', PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: 'k_test' });
      await baseUrl(server);
      const refused = runScript('local/reset.ts', [], { PETSTORE_DATA_DIR: dataDir });
      expect(await refused.exited).toBe(1);
      expect(refused.output().trim()).toBe(
        `reset: PETSTORE_DATA_DIR ${dataDir} is in use by another server: stop that server first, or choose another directory.`,
      );
      const pets = await fetch(`${await baseUrl(server)}/v1/pets`, {
        headers: { Authorization: 'Bearer k_test' },
      });
      expect(pets.status).toBe(200);
      const unnamed = runScript('local/reset.ts', [], { PETSTORE_DATA_DIR: '' });
      expect(await unnamed.exited).toBe(1);
      expect(unnamed.output()).toMatch(/^reset: name the data directory\.\nusage: npm run reset/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const emptyIt = 'empty it (npm run reset -- <dir> for a data directory) or name another table.';
  it.each([
    {
      layout: 'from before pets were sharded',
      item: { pk: 'COUNTER', sk: 'PET_ID', value: 50 },
      says: (table: string) => `Table ${table} has the layout from before pets were sharded: ${emptyIt}`,
    },
    {
      // An id counter and no layout item: a table of the version that spread pets over 16 shards.
      layout: 'made for another shard count',
      item: { pk: 'COUNTER', sk: 'PET_ID_BLOCKS', value: 40 },
      says: (table: string) =>
        `Table ${table} holds pets in ${LEGACY_PET_SHARDS} shards and this version uses ${PET_SHARDS}: ${emptyIt}`,
    },
  ])('stops with one line on a table $layout', async ({ item, says }) => {
    const tableName = `petstore-old-layout-${Date.now()}`;
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
    const old = await openLocalDynamoDb({ endpoint, tableName });
    await old.table.putIfAbsent(item);
    await old.close();
    const server = start({
      PORT: '0',
      PETSTORE_API_KEY: 'k_test',
      PETSTORE_TABLE_NAME: tableName,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint ?? '',
    });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(`petstore: ${says(tableName)}`);
  });

  it('keeps data across restarts with PETSTORE_DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-'));
    try {
      const env = { PORT: '0', PETSTORE_API_KEY: 'k_test', PETSTORE_DATA_DIR: dataDir };
      const headers = { Authorization: 'Bearer k_test', 'Content-Type': 'application/json' };
      const first = start(env);
      const created = await fetch(`${await baseUrl(first)}/v1/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Kept","categoryId":1}',
      });
      expect(created.status).toBe(201);
      first.child.kill('SIGTERM');
      await first.exited;
      const second = start(env);
      const listed = await fetch(`${await baseUrl(second)}/v1/pets`, { headers });
      expect(await listed.json()).toEqual([{ id: 1, name: 'Kept', categoryId: 1, status: 'available' }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start on a DynamoDB of its own choosing', () => {
  it('creates the table, and keeps cursors valid across servers that share it', async () => {
    const env = {
      PORT: '0',
      PETSTORE_API_KEY: 'k_test',
      AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '',
      PETSTORE_TABLE_NAME: `petstore-shared-${Date.now()}`,
    };
    const headers = { Authorization: 'Bearer k_test', 'Content-Type': 'application/json' };
    const [first, second] = [start(env), start(env)];
    const [firstUrl, secondUrl] = await Promise.all([baseUrl(first), baseUrl(second)]);
    for (const name of ['A', 'B', 'C']) {
      const created = await fetch(`${firstUrl}/v1/pets`, {
        method: 'POST',
        headers,
        body: `{"name":"${name}","categoryId":1}`,
      });
      expect(created.status).toBe(201);
    }
    const page = await fetch(`${firstUrl}/v1/pets?limit=1`, { headers });
    const next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
    const followed = await fetch(`${secondUrl}${next}`, { headers });
    expect(followed.status).toBe(200);
    expect(((await followed.json()) as { name: string }[]).map((pet) => pet.name)).toEqual(['B']);
  });
});
