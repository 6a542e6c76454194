// The embedded DynamoDB releases what a Query opens: dynalite reads a Query's items through a LevelDB
// iterator, and one never closed stays attached to its database for good, so a server under list load
// would grow without bound (patches/dynalite+*.patch). Nothing is mocked: dynalite, the handlers and
// the AWS SDK talk over HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { createPetRequest, invoke, listPetsRequest } from '#local/api-gateway/proxy-requests.ts';
import { createObservability } from '#shared/observability.ts';
import { PET_STATUSES } from '#shared/schemas.ts';

type Resources = { attachResource(resource: object): void; detachResource(resource: object): void };
type StoreClass = { prototype: Resources };

// dynalite's two stores, as dynalite itself loads them.
const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const { MemoryLevel } = requireFromDynalite('memory-level') as { MemoryLevel: StoreClass };
const { Level } = requireFromDynalite('level') as { Level: StoreClass };

/**
 * Every resource attached to a store of either kind and not yet detached: abstract-level, under both
 * stores, attaches each open iterator (or snapshot, batch) to its database and detaches it on close.
 */
const openResources = new Set<object>();
for (const { prototype } of [MemoryLevel, Level]) {
  const { attachResource, detachResource } = prototype;
  prototype.attachResource = function (resource) {
    openResources.add(resource);
    attachResource.call(this, resource);
  };
  prototype.detachResource = function (resource) {
    openResources.delete(resource);
    detachResource.call(this, resource);
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'petstore-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const ROUNDS = 25;
/** Pets enough that each listing stops at its page size, leaving items unread behind the iterator. */
const PETS = 40;

describe.each([
  { store: 'in memory', dataDir: undefined },
  { store: 'on disk (PETSTORE_DATA_DIR)', dataDir },
])('the embedded DynamoDB, $store', (options) => {
  it('closes the iterator of every Query, on the table and on the status index', async () => {
    const local = await openLocalDynamoDb({ ...options, tableName: 'petstore-iterators' });
    try {
      const functions = createSourceFunctions({
        table: local.table,
        cursorSecret: 'a-cursor-secret-of-at-least-32-characters',
        observability: createObservability({ logLevel: 'OFF', metrics: false }),
      });
      for (let i = 0; i < PETS; i++) {
        const status = PET_STATUSES[i % PET_STATUSES.length];
        await invoke(functions.createPet, createPetRequest({ name: `Pet ${i}`, categoryId: 1, status }));
      }
      const firstPage = await invoke(functions.listPets, listPetsRequest('limit=5'));
      const secondPage = /^<\/v1\/pets\?([^>]+)>; rel="next"$/.exec(firstPage.headers.Link ?? '')?.[1];
      expect(secondPage).toMatch(/^limit=5&cursor=/);
      const listings = ['', 'status=available', 'limit=5', String(secondPage), 'status=sold&limit=2'];

      const openBefore = openResources.size;
      for (let round = 0; round < ROUNDS; round++) {
        for (const query of listings) {
          expect((await invoke(functions.listPets, listPetsRequest(query))).status).toBe(200);
        }
      }
      // The last Query's iterator may still be closing (on disk, LevelDB closes it on a thread of
      // its own); one per Query, as before the fix, would be over a hundred here.
      expect(openResources.size - openBefore).toBeLessThanOrEqual(1);
    } finally {
      await local.close();
    }
  });
});
