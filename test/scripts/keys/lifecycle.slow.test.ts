// Scoped, expiring and rotated keys, made with `npm run keys` and used over HTTP against a running
// `npm start` (and `npm run dev`, for the authorizer's answers): a read-only key reads and is refused
// every write, on any first route; an expiring key stops on its own; a rotation keeps both keys for
// the overlap. Bad input changes nothing. The stage run's cached answers: test/local/start-stage.
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issuedKey, keysIn, statusOf } from '#test/scripts/keys/command.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';

let url: string;
let port: string[];
/** An animal the read-only keys read. */
let petId: number;

/** A server of its own, with the full key k_full and one animal, for the tests of one describe. */
const serving = (script: string) =>
  beforeAll(async () => {
    killScripts();
    const server = runScript(script, [], { PORT: '0', PETSTORE_API_KEY: 'k_full' });
    url = await bannerUrl(server);
    port = ['--port', new URL(url).port];
    petId = ((await call('k_full', 'POST', '/pets', newPet)).body as { id: number }).id;
  });
afterAll(killScripts);

const keys = (...args: string[]) => keysIn({}, [...args, ...port]);

async function created(...args: string[]) {
  const issued = await keys('create', ...args);
  expect(issued.code).toBe(0);
  return issuedKey(issued.output);
}

async function call(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const newPet = { name: 'Read-only test', categoryId: 1, status: 'pending' };
const READ_ONLY_REFUSAL = {
  code: 'forbidden',
  message: 'This API key is read-only: it may call GET only.',
  status: 403,
};

describe.each([
  ['npm start', 'local/start.ts'],
  ['npm run dev', 'local/dev.ts'],
])('%s', (_name, script) => {
  serving(script);

  describe('a read-only key', () => {
    const routes = {
      listPets: (key: string) => call(key, 'GET', '/pets?status=pending'),
      getPet: (key: string) => call(key, 'GET', `/pets/${petId}`),
      createPet: (key: string) => call(key, 'POST', '/pets', newPet),
    };
    const expected = { listPets: 200, getPet: 200, createPet: 403 };

    it.each(Object.keys(routes) as (keyof typeof routes)[])(
      'reads and is refused every write with a forbidden Error object, when %s comes first',
      async (first) => {
        const { key } = await created('--name', `storefront ${first}`, '--read-only');
        const before = await call('k_full', 'GET', '/pets?status=pending');
        const order = [
          first,
          ...(Object.keys(routes) as (keyof typeof routes)[]).filter((name) => name !== first),
        ];
        for (const name of order) {
          const answer = await routes[name](key);
          expect({ name, status: answer.status }).toEqual({ name, status: expected[name] });
          if (name === 'createPet') expect(answer.body).toEqual(READ_ONLY_REFUSAL);
        }
        expect((await call(key, 'DELETE', '/pets')).body).toEqual(READ_ONLY_REFUSAL);
        // Nothing was written.
        expect(await call('k_full', 'GET', '/pets?status=pending')).toEqual(before);
      },
    );

    it('is listed as read-only, and keeps its scope through a rotation', async () => {
      const { id } = await created('--name', 'storefront rotated', '--read-only');
      expect((await keys('list')).output).toMatch(
        new RegExp(`${id}\\s+\\S+\\s+read-only\\s+active\\s+storefront`),
      );
      const rotated = await keys('rotate', id, '--overlap', '0s');
      expect(rotated.code).toBe(0);
      expect(rotated.output).toContain('(storefront rotated, read-only, no expiry)');
      const successor = issuedKey(rotated.output);
      expect((await call(successor.key, 'POST', '/pets', newPet)).status).toBe(403);
      expect((await call(successor.key, 'GET', '/pets')).status).toBe(200);
    });
  });

  describe('a key created with --expires', () => {
    it('works until then, and is refused like an unknown key from then on', async () => {
      const { id, key } = await created('--name', 'contractor', '--expires', '2s');
      expect(await statusOf(url, key)).toBe(200);
      expect((await keys('list')).output).toMatch(
        new RegExp(`${id}\\s+\\S+\\s+full\\s+active until \\S+Z\\s+contractor`),
      );
      await pause(3_000);
      const refused = await call(key, 'GET', '/pets');
      expect(refused).toEqual(await call('psk_never-issued', 'GET', '/pets'));
      expect(refused.status).toBe(401);
      expect((await keys('list')).output).toMatch(
        new RegExp(`${id}\\s+\\S+\\s+full\\s+expired \\S+Z\\s+contractor`),
      );
    });

    it('takes an ISO 8601 date-time with its zone', async () => {
      const at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
      const issued = await keys('create', '--name', 'dated', '--expires', at);
      expect(issued.output).toContain(`(dated, full, expires ${new Date(at).toISOString()})`);
      expect(await statusOf(url, issuedKey(issued.output).key)).toBe(200);
    });
  });
});

describe('npm start', () => {
  serving('local/start.ts');

  describe('keys rotate', () => {
    it('keeps both keys working for the overlap, then only the new one', async () => {
      const old = await created('--name', 'till');
      const rotated = await keys('rotate', old.id, '--overlap', '2s');
      expect(rotated.code).toBe(0);
      const successor = issuedKey(rotated.output);
      expect(successor.id).not.toBe(old.id);
      expect(rotated.output).toMatch(new RegExp(`${old.id} expires at \\S+Z: until then both keys work\\.`));
      expect([await statusOf(url, old.key), await statusOf(url, successor.key)]).toEqual([200, 200]);
      await pause(3_000);
      expect([await statusOf(url, old.key), await statusOf(url, successor.key)]).toEqual([401, 200]);
    });

    it('ends the old key at once with --overlap 0s, and never outlives the old expiry', async () => {
      const old = await created('--name', 'short', '--expires', '1h');
      const rotated = await keys('rotate', old.id, '--overlap', '0s');
      expect(rotated.output).toContain(`${old.id} expired at`);
      expect(await statusOf(url, old.key)).toBe(401);
      const expiry = /\(short, full, expires (\S+)\)/.exec(rotated.output)?.[1];
      const oldExpiry = new RegExp(`${old.id}\\s+\\S+\\s+full\\s+expired (\\S+)`).exec(
        (await keys('list')).output,
      );
      expect(Date.parse(expiry ?? '')).toBeGreaterThan(Date.now() + 3_000_000);
      expect(oldExpiry?.[1]).toBeDefined();
      // The successor keeps the old key's end: a rotation never extends access.
      const listed = (await keys('list')).output;
      expect(listed).toMatch(new RegExp(`active until ${expiry?.replace(/\./g, '\\.')}\\s+short`));
    });
  });

  describe('bad input', () => {
    const lines = (output: string) => output.trim().split('\n');

    it.each([
      [
        ['create', '--name', 'x', '--expires', 'tomorrow'],
        /^keys: --expires tomorrow: not a duration like 90s/,
      ],
      [
        ['create', '--name', 'x', '--expires', '2020-01-01T00:00:00Z'],
        /^keys: --expires 2020-01-01T00:00:00Z: that is not in the future/,
      ],
      [
        ['create', '--name', 'x', '--expires', '2027-02-30T00:00:00Z'],
        /^keys: --expires 2027-02-30T00:00:00Z: not a duration/,
      ],
      [['create', '--name', 'x', '--expires', '0s'], /^keys: --expires 0s: that is not in the future/],
      [['rotate', 'key_0', '--overlap', '-1h'], /^keys: --overlap -1h: must not be negative/],
      [['rotate', 'key_0', '--overlap', '1.5h'], /^keys: --overlap 1\.5h: not a duration like 90s/],
    ])('%j is one line, exit 1, and changes nothing', async (args, message) => {
      const before = (await keys('list')).output;
      const refused = await keys(...args);
      expect(refused.code).toBe(1);
      expect(lines(refused.output)).toEqual([expect.stringMatching(message)]);
      expect((await keys('list')).output).toBe(before);
    });

    it('refuses to rotate an unknown, a revoked or an expired key, and changes nothing', async () => {
      const revoked = await created('--name', 'gone');
      await keys('revoke', revoked.id);
      const expired = await created('--name', 'lapsed', '--expires', '1s');
      await pause(1_500);
      const before = (await keys('list')).output;
      const cases = [
        ['key_missing', /^keys: No key with id key_missing\.$/],
        [
          revoked.id,
          new RegExp(
            `^keys: ${revoked.id} was revoked at \\S+: there is nothing to rotate; create a new key\\.$`,
          ),
        ],
        [
          expired.id,
          new RegExp(
            `^keys: ${expired.id} expired at \\S+: there is nothing to rotate; create a new key\\.$`,
          ),
        ],
      ] as const;
      for (const [id, message] of cases) {
        const refused = await keys('rotate', id);
        expect(refused.code).toBe(1);
        expect(lines(refused.output).slice(1)).toEqual([expect.stringMatching(message)]);
      }
      expect((await keys('list')).output).toBe(before);
    });

    it.each([
      [['list', '--read-only']],
      [['revoke', 'key_0', '--expires', '1h']],
      [['create', '--name', 'x', '--overlap', '1h']],
    ])('%j: an option of another command is the usage line', async (args) => {
      const refused = await keys(...args);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/^usage: npm run keys/);
    });
  });
});
