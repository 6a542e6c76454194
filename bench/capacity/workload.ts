// Runs a planned sample through the functions as their composition roots build them, on an embedded
// DynamoDB behind the recorder, one request at a time: each request with the DynamoDB requests it made
// (setup unrecorded) and the cache in front of it, described for the mix's grown catalogue
// (catalogueAfter), where later pages and pets rarely repeat, not for the sample's small one.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createPetRequest,
  getPetRequest,
  invoke,
  listPetsRequest,
} from '../../local/api-gateway/proxy-requests.ts';
import type { ProxyRequest } from '../../shared/http/proxy-event.ts';
import { startEmbeddedDynamoDb } from '../../local/dynamodb/embedded.ts';
import { openLocalDynamoDb } from '../../local/dynamodb/connect.ts';
import { lambdaContext } from '../../local/lambda/context.ts';
import { createSourceFunctions } from '../../local/lambda/source-functions.ts';
import { seededRandom } from '../../local/dynamodb/seed-pets.ts';
import { STAGE_SETTINGS } from '../../lib/stage-settings.ts';
import { AUTHORIZER } from '../../shared/http/routes.ts';
import type { Pet, PetStatus } from '../../shared/schemas.ts';
import { createApiKeyStore } from '../../shared/store/api-key-store.ts';
import { PET_ID_COUNTERS } from '../../shared/store/id-allocator.ts';
import type { IssuedApiKey } from '../../shared/store/api-key-store.ts';
import { tokenEvent } from '#bench/processes/events.ts';
import { nextPageQuery } from '#bench/dynamodb/usage.ts';
import { POPULAR_PET_CACHE_KEY, TARGET, planRequests } from '#bench/capacity/mix.ts';
import type { Mix, PlannedRequest } from '#bench/capacity/mix.ts';
import type { CacheSpec, RecordedRequest, Sample } from '#bench/capacity/model.ts';
import { startRecorder } from '#bench/dynamodb/recorder.ts';

export type WorkloadOptions = {
  mix: Mix;
  petShards: number;
  /** API Gateway's stage cache on GET /pets, keyed by its query string; absent: no cache. */
  listCacheSeconds?: number | undefined;
  /**
   * getPet's cache of pets read (shared/store/pet-read-cache.ts), as the model sees it: each of
   * `copies` instances keeps a pet about `ttlSeconds`. The sample itself runs without it, so that each
   * getPet records what a miss costs.
   */
  petReadCache: { ttlSeconds: number; copies: number };
  progress?(done: number, total: number): void;
};

/** The pets a cache meets: the seeded ones, and the target's creates over the mix's hours. */
export const catalogueAfter = (mix: Mix) =>
  mix.seededPets + TARGET.createsPerSecond * 3600 * mix.catalogueHours;

/** The later pages of one filter and page size in that catalogue: the cache entries they spread over. */
function laterPagesOf(mix: Mix, limit: number, status?: PetStatus): number {
  const statusShares = mix.create.statuses;
  const total = Object.values(statusShares).reduce((sum, share) => sum + share, 0);
  const pets = catalogueAfter(mix) * (status ? statusShares[status] / total : 1);
  return Math.max(1, Math.ceil(pets / limit) - 1);
}

export type Workload = {
  sample: Sample;
  /** DynamoDB Queries each list page made: the sample's pages and, apart, every page of full walks. */
  queriesPerPage: { sample: number[]; walks: number[] };
};

/** The request as the authorizer lets it through for `key`: its own bearer token and principal. */
const withKey = (request: ProxyRequest, key: IssuedApiKey): ProxyRequest => ({
  ...request,
  headers: [
    [AUTHORIZER.header, `Bearer ${key.key}`],
    ...(request.headers ?? []).filter(([name]) => name !== AUTHORIZER.header),
  ],
  authorizer: { principalId: key.id, apiKeyId: key.id },
});

/** What an answer sends a client: its body and headers. */
const bytesOf = (answer: { text: string; headers: Record<string, unknown> }) =>
  Buffer.byteLength(answer.text) +
  Object.entries(answer.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length, 0);

const listQuery = (limit: number, status?: PetStatus) =>
  new URLSearchParams({ limit: String(limit), ...(status && { status }) }).toString();

export async function runWorkload({
  mix,
  petShards,
  listCacheSeconds,
  petReadCache,
  progress,
}: WorkloadOptions): Promise<Workload> {
  const embedded = await startEmbeddedDynamoDb();
  const recorder = await startRecorder(embedded.endpoint);
  const local = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: 'petstore-capacity' });
  try {
    const cursorSecret = randomBytes(32).toString('base64url');
    // Counters picked in turn, across every instance: the even spread that Lambda's many instances,
    // each picking at random, make over time (docs/capacity.md says how far a second strays from it).
    let picks = 0;
    const pickCounter = () => ((picks++ % PET_ID_COUNTERS) + 0.5) / PET_ID_COUNTERS;
    const functions = () =>
      createSourceFunctions({
        table: local.table,
        cursorSecret,
        petShards,
        tuning: { petReadCacheEntries: 0, pickCounter },
      });
    const { listPets, getPet, authorizer, createPet } = functions();
    const createPets = [
      createPet,
      ...Array.from({ length: mix.createInstances - 1 }, () => functions().createPet),
    ];
    const apiKeyStore = createApiKeyStore(local.table);
    const keys: IssuedApiKey[] = [];
    for (let index = 0; index < mix.apiKeys; index++) keys.push(await apiKeyStore.issue(`capacity ${index}`));

    const petIds: number[] = [];
    let creates = 0;
    async function create(key: IssuedApiKey, status: PetStatus, idempotencyKey: boolean) {
      const createPetInstance = createPets[creates++ % createPets.length] ?? createPet;
      const headers: [string, string][] = idempotencyKey ? [['Idempotency-Key', randomUUID()]] : [];
      const request = createPetRequest(
        { name: `Pet ${creates}`, categoryId: 1 + (creates % 7), status },
        { headers },
      );
      const answer = await invoke(createPetInstance, withKey(request, key));
      if (answer.status !== 201) throw new Error(`createPet answered ${answer.status}: ${answer.text}`);
      petIds.push((answer.json as Pet).id);
      return bytesOf(answer);
    }
    const [seedKey] = keys;
    if (!seedKey) throw new Error('The mix needs at least one API key');
    for (let index = 0; index < mix.seededPets; index++)
      await create(seedKey, index % 5 === 4 ? 'sold' : index % 5 === 3 ? 'pending' : 'available', false);

    /** Lists one page: the next page's query, the DynamoDB requests it made and how many were Queries. */
    async function list(key: IssuedApiKey, query: string) {
      recorder.take();
      const answer = await invoke(listPets, withKey(listPetsRequest(query), key));
      if (answer.status !== 200) throw new Error(`listPets answered ${answer.status}: ${answer.text}`);
      const entries = recorder.take();
      const queries = entries.filter((entry) => entry.operation === 'Query').length;
      return { next: nextPageQuery(answer.headers.Link), entries, queries, responseBytes: bytesOf(answer) };
    }
    const laterPages = new Map<string, string[]>();
    const walks: number[] = [];
    const filters = [undefined, ...(Object.keys(mix.list.statuses) as PetStatus[])];
    for (const limit of Object.keys(mix.list.limits).map(Number))
      for (const status of filters) {
        const pages: string[] = [];
        let query: string | undefined = listQuery(limit, status);
        while (query) {
          const page = await list(seedKey, query);
          walks.push(page.queries);
          if (page.next) pages.push(page.next);
          query = page.next;
        }
        laterPages.set(listQuery(limit, status), pages);
      }

    const random = seededRandom(mix.seed + 1);
    const hotPetId = petIds[Math.floor(petIds.length / 2)] ?? 0;
    const pick = <T>(choices: T[]) => {
      const choice = choices[Math.floor(random() * choices.length)];
      if (choice === undefined) throw new Error('Nothing to pick from');
      return choice;
    };
    const requestsOfKey = new Map<IssuedApiKey, number>();
    const requests: RecordedRequest[] = [];
    const samplePages: number[] = [];
    const plan = planRequests(mix);
    recorder.take();
    for (const [index, planned] of plan.entries()) {
      const key = keys[planned.apiKey] ?? seedKey;
      requestsOfKey.set(key, (requestsOfKey.get(key) ?? 0) + 1);
      requests.push(await runPlanned(planned, key));
      progress?.(index + 1, plan.length);
    }
    for (const [key, count] of requestsOfKey) {
      const allowed = await authorizer(tokenEvent(key.key), lambdaContext());
      if (allowed.principalId !== key.id) throw new Error('The authorizer did not allow a fresh key');
      requests.push({
        operation: 'authorizer',
        count,
        cache: { key: key.key, ttlSeconds: STAGE_SETTINGS.production.authorizerCacheSeconds },
        entries: recorder.take(),
      });
    }
    return { sample: { requests, size: plan.length }, queriesPerPage: { sample: samplePages, walks } };

    async function runPlanned(planned: PlannedRequest, key: IssuedApiKey): Promise<RecordedRequest> {
      switch (planned.operation) {
        case 'listPets': {
          const first = listQuery(planned.limit, planned.status);
          const later = laterPages.get(first) ?? [];
          const firstPage = planned.firstPage || later.length === 0;
          const page = await list(key, firstPage ? first : pick(later));
          samplePages.push(page.queries);
          const cache: CacheSpec | undefined =
            listCacheSeconds === undefined
              ? undefined
              : firstPage
                ? { key: first, ttlSeconds: listCacheSeconds, fillSeconds: mix.list.cacheFillSeconds }
                : {
                    key: `later pages of ${first}`,
                    ttlSeconds: listCacheSeconds,
                    keys: laterPagesOf(mix, planned.limit, planned.status),
                    fillSeconds: mix.list.cacheFillSeconds,
                  };
          return {
            operation: planned.operation,
            count: 1,
            ...(cache && { cache }),
            responseBytes: page.responseBytes,
            entries: page.entries,
          };
        }
        case 'getPet': {
          const petId = planned.hotPet ? hotPetId : pick(petIds);
          const answer = await invoke(getPet, withKey(getPetRequest(String(petId)), key));
          if (answer.status !== 200) throw new Error(`getPet answered ${answer.status}: ${answer.text}`);
          const cache: CacheSpec = planned.hotPet
            ? { key: POPULAR_PET_CACHE_KEY, ...petReadCache }
            : { key: 'any pet', ...petReadCache, keys: catalogueAfter(mix) };
          const responseBytes = bytesOf(answer);
          return { operation: planned.operation, count: 1, cache, responseBytes, entries: recorder.take() };
        }
        case 'createPet': {
          const responseBytes = await create(key, planned.status, planned.idempotencyKey);
          return { operation: planned.operation, count: 1, responseBytes, entries: recorder.take() };
        }
      }
    }
  } finally {
    await local.close();
    await recorder.close();
    await embedded.close();
  }
}
