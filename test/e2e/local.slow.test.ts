// The end-to-end contract suite (contract-suite.ts) against `npm start` as a user runs it: a child
// process on its own embedded DynamoDB, reached over HTTP with a key of its own. Both modes run on
// the one server: first reading and writing, so that the read-only run then walks real pages; then
// read-only, between two full listings that must be the same, which proves that it created nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { defineContractSuite } from '#test/e2e/contract-suite.ts';
import { e2eClient, followLinks } from '#test/e2e/client.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

const apiKey = `psk_e2e_${randomBytes(24).toString('base64url')}`;
/** Known from beforeAll on: the port is the one the server picked. */
const server = { baseUrl: '' };

beforeAll(async () => {
  const started = runScript('local/start.ts', [], { PORT: '0', PETSTORE_API_KEY: apiKey });
  server.baseUrl = `${await bannerUrl(started)}/v1`;
});

afterAll(killScripts);

describe('npm start, reading and writing', () => {
  defineContractSuite(() => ({ ...server, apiKey, readOnly: false, keyLimits: null }));
});

describe('npm start, read-only', () => {
  /** Every page of the whole listing, as raw text: any pet added or changed shows. */
  const wholeListing = async () => {
    const { pages, complete } = await followLinks(
      e2eClient({ ...server, apiKey }),
      '/v1/pets?limit=100',
      100,
    );
    expect(complete).toBe(true);
    return pages.map((page) => page.text);
  };
  let before: string[];
  beforeAll(async () => {
    before = await wholeListing();
  });

  describe('the contract suite', () => {
    defineContractSuite(() => ({ ...server, apiKey, readOnly: true, keyLimits: null }));
  });

  describe('after the suite', () => {
    it('created nothing: the whole listing is the same as before', async () => {
      // The writing run before left pets, so the comparison has something to compare.
      expect((JSON.parse(before[0] ?? '[]') as Pet[]).length).toBeGreaterThan(0);
      expect(await wholeListing()).toEqual(before);
    });
  });
});
