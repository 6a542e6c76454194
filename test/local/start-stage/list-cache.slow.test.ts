// Production's stage cache of GET /pets, as a client of `npm run start:stage -- production` sees it: a
// pet created after a page was read is missing from it until its TTL is over, another `limit` or
// If-None-Match is another entry, and getPet reads the pet at once. The one stand-in: a copy of the
// assembly whose production template has a TTL short enough to wait out.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';
import type { Pet } from '#shared/schemas.ts';
import { httpClient } from '#test/support/http.ts';
import type { HttpResponse } from '#test/support/http.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import type { ScriptRun } from '#test/support/process.ts';
import { PROJECT_CDK_OUT, projectAssembly } from '#test/support/project-assembly.ts';

/** Long enough for a read, a create and a read again; short enough to wait out. */
const TTL_SECONDS = 2;

const copyDir = mkdtempSync(join(tmpdir(), 'petstore-list-cache-'));
const apiKey = `psk_list_cache_${randomUUID()}`;
let stage: ScriptRun | undefined;
let request: ReturnType<typeof httpClient>;

/** cdk.out copied, its production stage's cached methods given the short TTL. */
function assemblyWithShortTtl(): string {
  projectAssembly('production');
  cpSync(PROJECT_CDK_OUT, copyDir, { recursive: true });
  const stageDir = join(copyDir, 'assembly-Production');
  const templateFile = join(
    stageDir,
    readdirSync(stageDir).find((name) => name.endsWith('.template.json')) ?? '',
  );
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as CloudTemplate;
  const shortened = Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::ApiGateway::Stage')
    .flatMap((resource) => (resource.Properties?.MethodSettings ?? []) as Record<string, unknown>[])
    .filter((setting) => setting.CachingEnabled === true);
  if (shortened.length !== 1) throw new Error('the production template caches no method, or several');
  for (const setting of shortened) setting.CacheTtlInSeconds = TTL_SECONDS;
  writeFileSync(templateFile, JSON.stringify(template));
  return copyDir;
}

beforeAll(async () => {
  stage = runScript('local/start-stage.ts', ['production', '--assembly', assemblyWithShortTtl()], {
    PORT: '0',
    PETSTORE_API_KEY: apiKey,
  });
  request = httpClient({ url: await bannerUrl(stage), apiKey });
}, 60_000);

afterAll(async () => {
  if (stage) {
    // SIGTERM lets the stage run stop its function instances; SIGKILL would leave them behind.
    stage.child.kill('SIGTERM');
    await Promise.race([stage.exited, sleep(5_000, undefined, { ref: false })]);
  }
  killScripts();
  rmSync(copyDir, { recursive: true, force: true });
});

const petsOf = (response: HttpResponse) => {
  expect(response.status).toBe(200);
  return response.json as Pet[];
};

const create = async (name: string) => {
  const created = await request('/v1/pets', {
    method: 'POST',
    body: JSON.stringify({ name: `${name} ${randomUUID()}`, categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  return created.json as Pet;
};

it('lists a new pet on a page read before it only once the TTL is over; getPet reads it at once', async () => {
  // Both functions started (cold) first, so that what follows the first read takes well under the TTL.
  await create('Warm-up');
  petsOf(await request('/v1/pets?limit=1'));

  const before = petsOf(await request('/v1/pets?limit=100'));
  // The page was cached before its answer came: it expires a TTL after that at the latest.
  const cachedBy = Date.now();
  const pet = await create('Fresh');
  const cached = petsOf(await request('/v1/pets?limit=100'));
  const anotherEntry = petsOf(await request('/v1/pets?limit=99'));
  const read = await request(`/v1/pets/${pet.id}`);
  expect(Date.now() - cachedBy).toBeLessThan(TTL_SECONDS * 1000);

  expect(cached).toEqual(before);
  expect(cached).not.toContainEqual(pet);
  expect(anotherEntry).toContainEqual(pet);
  expect(read.json).toEqual(pet);

  await sleep(cachedBy + TTL_SECONDS * 1000 - Date.now());
  expect(petsOf(await request('/v1/pets?limit=100'))).toContainEqual(pet);
});

it('keys a page by If-None-Match too: a cached 304 answers only its tag, a cached 200 keeps its ETag', async () => {
  const page = '/v1/pets?limit=7';
  const first = await request(page);
  const stale = first.headers.get('etag') ?? '';
  expect(stale).toMatch(/^W\/"/);
  // A pet that changes the page, which the cache still holds: the same 200, ETag and all.
  await create('Hidden');
  const cached = await request(page);
  expect([cached.status, cached.headers.get('etag'), cached.text]).toEqual([200, stale, first.text]);
  // A tag is another entry: the function answers the old tag with the page as it is now.
  const fresh = await request(page, { headers: { 'If-None-Match': stale } });
  expect(fresh.status).toBe(200);
  const current = fresh.headers.get('etag') ?? '';
  expect(current).not.toBe(stale);
  // The current tag's 304 fills an entry of its own, which a client without the tag never gets.
  const notModified = await request(page, { headers: { 'If-None-Match': current } });
  expect([notModified.status, notModified.text]).toEqual([304, '']);
  expect((await request(page)).status).toBe(200);
  expect((await request(page, { headers: { 'If-None-Match': current } })).status).toBe(304);
});
