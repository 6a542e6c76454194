// Runs a planned sample through the functions as their Lambda composition roots build them, on an
// embedded DynamoDB behind the recorder, one request at a time, and returns each request with the
// DynamoDB requests it made. Setup (keys, seeded pets, the walks that find later pages' cursors) is
// not recorded.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createPetRequest,
  getPetRequest,
  invoke,
  listPetsRequest,
} from '#local/api-gateway/proxy-requests.ts';
import type { ProxyRequest } from '#local/api-gateway/proxy-event.ts';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { seededRandom } from '#local/dynamodb/seed-pets.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import type { Pet, PetStatus } from '#shared/schemas.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { tokenEvent } from '#bench/processes/events.ts';
import { nextPageQuery } from '#bench/dynamodb/usage.ts';
import { planRequests } from '#bench/capacity/mix.ts';
import type { Mix, PlannedRequest } from '#bench/capacity/mix.ts';
import type { RecordedRequest, Sample } from '#bench/capacity/model.ts';
import { startRecorder } from '#bench/capacity/recorder.ts';

export type WorkloadOptions = {
  mix: Mix;
  petShards: number;
  /** API Gateway's stage cache on GET /pets, keyed by its query string; absent: no cache. */
  listCacheSeconds?: number | undefined;
  progress?(done: number, total: number): void;
};

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

const listQuery = (limit: number, status?: PetStatus) =>
  new URLSearchParams({ limit: String(limit), ...(status && { status }) }).toString();

export async function runWorkload({
  mix,
  petShards,
  listCacheSeconds,
  progress,
}: WorkloadOptions): Promise<Workload> {
  const embedded = await startEmbeddedDynamoDb();
  const recorder = await startRecorder(embedded.endpoint);
  const local = await openLocalDynamoDb({ endpoint: recorder.endpoint, tableName: 'petstore-capacity' });
  try {
    const cursorSecret = randomBytes(32).toString('base64url');
    const functions = () => createSourceFunctions({ table: local.table, cursorSecret, petShards });
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
      return { next: nextPageQuery(answer.headers.Link), entries, queries };
    }
    const laterPages = new Map<string, string[]>();
    const walks: number[] = [];
    for (const status of [undefined, ...(Object.keys(mix.list.statuses) as PetStatus[])]) {
      const pages: string[] = [];
      let query: string | undefined = listQuery(mix.list.limit, status);
      while (query) {
        const page = await list(seedKey, query);
        walks.push(page.queries);
        if (page.next) pages.push(page.next);
        query = page.next;
      }
      laterPages.set(status ?? '', pages);
    }

    const random = seededRandom(mix.seed + 1);
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
        cache: { key: key.key, ttlSeconds: AUTHORIZER.resultsCacheTtlSeconds },
        entries: recorder.take(),
      });
    }
    return { sample: { requests, size: plan.length }, queriesPerPage: { sample: samplePages, walks } };

    async function runPlanned(planned: PlannedRequest, key: IssuedApiKey): Promise<RecordedRequest> {
      switch (planned.operation) {
        case 'listPets': {
          const first = listQuery(mix.list.limit, planned.status);
          const query = planned.firstPage ? first : pick(laterPages.get(planned.status ?? '') ?? [first]);
          const page = await list(key, query);
          samplePages.push(page.queries);
          return {
            operation: planned.operation,
            count: 1,
            ...(listCacheSeconds && { cache: { key: query, ttlSeconds: listCacheSeconds } }),
            entries: page.entries,
          };
        }
        case 'getPet': {
          const answer = await invoke(getPet, withKey(getPetRequest(String(pick(petIds))), key));
          if (answer.status !== 200) throw new Error(`getPet answered ${answer.status}: ${answer.text}`);
          return { operation: planned.operation, count: 1, entries: recorder.take() };
        }
        case 'createPet':
          await create(key, planned.status, planned.idempotencyKey);
          return { operation: planned.operation, count: 1, entries: recorder.take() };
      }
    }
  } finally {
    await local.close();
    await recorder.close();
    await embedded.close();
  }
}
