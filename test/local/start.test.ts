// `npm start` as a user runs it: a child process on its own embedded DynamoDB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
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
    ['a bad PORT', { PORT: 'eighty' }, 'petstore: PORT must be a port number, not "eighty".'],
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
