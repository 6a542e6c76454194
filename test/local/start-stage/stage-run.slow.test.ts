// The stage run's faults, as a client of `npm run start:stage -- staging` sees them: a DynamoDB call
// outside a function's IAM policy refused, a burst over the usage plan throttled, a revoked key served
// for its cached authorizer TTL, a read-only key's write refused, a timeout answered 504 and a killed
// instance 502. The only stand-ins: an edited copy of the assembly, and a proxy that slows DynamoDB.
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import { LAMBDA_ESBUILD_OPTIONS } from '#lib/functions/bundling.ts';
import { startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import type { EmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { DEFAULT_MAX_INSTANCES } from '#local/lambda/child-process-runner.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { PET_PARTITIONS, TABLE_KEY } from '#shared/store/table.ts';
import { bannerUrl, killScripts, runScript } from '#test/support/process.ts';
import type { ScriptRun } from '#test/support/process.ts';
import { REPO_ROOT } from '#test/support/repository.ts';
import { startDelayingDynamoDb } from '#test/local/start-stage/delaying-dynamodb.ts';
import type { DelayingDynamoDb } from '#test/local/start-stage/delaying-dynamodb.ts';
import { PROJECT_CDK_OUT, projectAssembly } from '#test/support/project-assembly.ts';

/** Short enough to wait out in a test, long enough to send two requests within. */
const AUTHORIZER_TTL_SECONDS = 2;
/** ListPets' timeout in the copy: a Query held longer than this kills its instance. */
const LIST_PETS_TIMEOUT_SECONDS = 1;
/** Staging's usage plan lets a key burst this many requests. */
const KEY_BURST = 10;
/** Rounds of parallel requests at most to start ListPets' instances before the burst. */
const WARM_UP_ROUNDS = 4;

type TemplateResource = {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
};
type Template = { Resources: Record<string, TemplateResource> };

let copyDir = '';
let embedded: EmbeddedDynamoDb | undefined;
let dynamoDb: DelayingDynamoDb | undefined;
let stage: ScriptRun | undefined;
let table: LocalDynamoDb | undefined;
let baseUrl = '';

/**
 * cdk.out copied as it is (served with `--assembly`), then its staging template edited so that each
 * fault happens in seconds and on demand: a short authorizer TTL, a short ListPets timeout, and a test
 * build of GetPetFunction that reads outside its policy (forbidden-read-handler.ts).
 */
async function editedAssembly(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-stage-run-'));
  projectAssembly('staging');
  cpSync(PROJECT_CDK_OUT, dir, { recursive: true });
  const stageDir = join(dir, 'assembly-Staging');
  const templateName = readdirSync(stageDir).find((name) => name.endsWith('.template.json'));
  if (!templateName) throw new Error(`no template in ${stageDir}`);
  const templateFile = join(stageDir, templateName);
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as Template;
  const resource = (logicalId: string) => {
    const found = template.Resources[logicalId];
    if (!found) throw new Error(`the staging template has no ${logicalId}`);
    return found;
  };
  const ofType = (type: string) => Object.values(template.Resources).filter((r) => r.Type === type);

  for (const authorizer of ofType('AWS::ApiGateway::Authorizer'))
    authorizer.Properties.AuthorizerResultTtlInSeconds = AUTHORIZER_TTL_SECONDS;
  resource('ListPetsFunction').Properties.Timeout = LIST_PETS_TIMEOUT_SECONDS;

  // GetPetFunction runs the test build instead of its own bundle, bundled as the stack bundles.
  const assetDir = join(dir, 'asset.forbidden');
  mkdirSync(assetDir);
  await build({
    ...LAMBDA_ESBUILD_OPTIONS,
    absWorkingDir: REPO_ROOT,
    entryPoints: [join(REPO_ROOT, 'test/local/start-stage/forbidden-read-handler.ts')],
    outfile: join(assetDir, 'index.js'),
  });
  const getPet = resource('GetPetFunction');
  getPet.Metadata = { ...getPet.Metadata, 'aws:asset:path': '../asset.forbidden' };

  writeFileSync(templateFile, JSON.stringify(template, null, 1));
  return dir;
}

beforeAll(async () => {
  copyDir = await editedAssembly();
  // An embedded DynamoDB of this file's own, behind a proxy the tests make slow when they need a
  // function caught waiting.
  embedded = await startEmbeddedDynamoDb();
  dynamoDb = await startDelayingDynamoDb(embedded.endpoint);
  stage = runScript('local/start-stage.ts', ['staging', '--assembly', copyDir], {
    PORT: '0',
    PETSTORE_API_KEY: `psk_stage_run_${randomUUID()}`,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoDb.endpoint,
  });
  baseUrl = await bannerUrl(stage);
  // The stage run created the table on start (its name is in the banner); the tests create and
  // revoke keys in it directly, not through the delaying proxy, so that their own calls are never held.
  const [, tableName = ''] = await stage.waitFor(/\(table ([^)\s]+)\)/);
  table = await openLocalDynamoDb({ endpoint: embedded.endpoint, tableName });
}, 60_000);

afterAll(async () => {
  await table?.close();
  if (stage) {
    // SIGTERM lets the stage run stop its function instances; SIGKILL would leave them behind.
    stage.child.kill('SIGTERM');
    await Promise.race([stage.exited, sleep(5_000, undefined, { ref: false })]);
  }
  killScripts();
  await dynamoDb?.close();
  await embedded?.close();
  if (copyDir) rmSync(copyDir, { recursive: true, force: true });
});

type StageResponse = { status: number; headers: Headers; json: unknown };
type SendOptions = { key: string; method?: string; body?: unknown; headers?: Record<string, string> };

/** One request to the stage, its body parsed (undefined when it is not JSON). */
async function send(target: string, { key, method = 'GET', body, headers = {} }: SendOptions) {
  const response = await fetch(`${baseUrl}${target}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: unknown) => {
    // No answer at all means the stage run itself failed: its last lines say why.
    const lastLines = stage?.output().trimEnd().split('\n').slice(-20).join('\n');
    const reason = `${method} ${target}: ${(error as Error).message}`;
    throw new Error(`${reason}; the stage run's last output:\n${lastLines}`, { cause: error });
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json } satisfies StageResponse;
}

/** A key of its own for each test: the usage plan's per-key limits of one test do not reach another. */
async function newKey(name: string): Promise<string> {
  if (!table) throw new Error('the stage run did not start');
  return (await createApiKeyStore(table.table).issue(`stage-run ${name}`)).key;
}

/** An Error object as API Gateway's gateway responses render it, JSON with its literal status. */
function expectGatewayError(response: StageResponse, code: string, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(response.json).toEqual({ code, message: expect.any(String), status });
}

/** A unique name and category for the pets one test creates, to find exactly them in a list. */
const uniquePet = (label: string) => ({
  name: `${label} ${randomUUID()}`,
  categoryId: Number.parseInt(randomUUID().slice(0, 8), 16) + 1,
});

describe('npm run start:stage -- staging, from an edited copy of the cloud assembly', () => {
  it("refuses a DynamoDB call outside the function's policy, and lets the real functions' calls through", async () => {
    const key = await newKey('iam');
    const refused = await send('/v1/pets/1', { key });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({ error: 'AccessDeniedException' });

    const created = await send('/v1/pets', { key, method: 'POST', body: uniquePet('Allowed') });
    expect(created.status).toBe(201);
    const listed = await send('/v1/pets?limit=100', { key });
    expect(listed.status).toBe(200);
    expect(listed.json).toContainEqual(created.json);
  });

  it('invokes each function through its alias live, the version API Gateway would call', async () => {
    const key = await newKey('alias');
    expect((await send('/v1/pets?limit=1', { key })).status).toBe(200);
    const output = stage?.output() ?? '';
    expect(output).toMatch(/^\[AuthorizerFunction:live\] cold start: instance pid \d+$/m);
    expect(output).toMatch(/^\[ListPetsFunction:live\] cold start: instance pid \d+$/m);
    // Nothing runs as the unpublished function ($LATEST).
    expect(output).not.toMatch(/^\[\w+Function\] /m);
    // A cold start is that one line: Node.js warns of nothing in loading a bundle.
    expect(output).not.toContain('Warning');
  });

  it('throttles a burst over the per-key limits with 429 too_many_requests and Retry-After', async () => {
    // ListPets' instances started first, as many as the burst keeps busy at once. With the 1 s
    // timeout the copy gives ListPets (for the timeout test), a first invocation on an instance
    // that boots beside seven others can run past it on a small machine (a 504 in the burst), and
    // this test is about the limits, not cold starts. Another key, so that the burst's key starts full.
    const warmUpKey = await newKey('burst warm-up');
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      const warmUp = await Promise.all(
        Array.from({ length: DEFAULT_MAX_INSTANCES }, () => send('/v1/pets?limit=1', { key: warmUpKey })),
      );
      if (warmUp.every((response) => response.status === 200)) break;
    }

    const key = await newKey('burst');
    // Its authorizer result cached first: the burst then meets the limits at once, instead of
    // waiting for as many authorizer invocations while the bucket refills.
    expect((await send('/v1/pets?limit=1', { key })).status).toBe(200);

    const burst = await Promise.all(Array.from({ length: 40 }, () => send('/v1/pets?limit=1', { key })));
    const throttled = burst.filter((response) => response.status === 429);
    expect(burst.filter((response) => response.status !== 429).map((response) => response.status)).toEqual(
      Array(burst.length - throttled.length).fill(200),
    );
    // The bucket held KEY_BURST - 1 tokens and refills at 5 a second: most of the 40 are refused.
    expect(throttled.length).toBeGreaterThanOrEqual(40 - 2 * KEY_BURST);
    for (const response of throttled) {
      expectGatewayError(response, 'too_many_requests', 429);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    }

    // Refilled at 5 a second, the bucket has tokens again well within 2.5 s.
    await sleep(2_500);
    expect((await send('/v1/pets?limit=1', { key })).status).toBe(200);
  });

  it('keeps serving a revoked key until its cached authorizer result expires, then answers 401', async () => {
    if (!table) throw new Error('the stage run did not start');
    const apiKeys = createApiKeyStore(table.table);
    const revocable = await apiKeys.issue('stage-run revoked');
    const firstSent = Date.now();
    expect((await send('/v1/pets?limit=1', { key: revocable.key })).status).toBe(200);
    const cachedBy = Date.now();
    await apiKeys.revoke(revocable.id);

    const cached = await send('/v1/pets?limit=1', { key: revocable.key });
    // Only meaningful while the cached result is still fresh.
    expect(Date.now() - firstSent).toBeLessThan(AUTHORIZER_TTL_SECONDS * 1000);
    expect(cached.status).toBe(200);

    await sleep(Math.max(0, cachedBy + AUTHORIZER_TTL_SECONDS * 1000 + 300 - Date.now()));
    const refused = await send('/v1/pets?limit=1', { key: revocable.key });
    expectGatewayError(refused, 'unauthorized', 401);

    expect((await send('/v1/pets?limit=1', { key: await newKey('after revoke') })).status).toBe(200);
  });

  it.each(['POST', 'GET'] as const)(
    "answers a read-only key's requests rightly from one cached authorizer result, %s first",
    async (first) => {
      if (!table) throw new Error('the stage run did not start');
      const { key } = await createApiKeyStore(table.table).issue(`stage-run read-only ${first}`, {
        scope: 'read-only',
      });
      const requests = {
        POST: () => send('/v1/pets', { key, method: 'POST', body: uniquePet('Read-only') }),
        GET: () => send('/v1/pets?limit=1', { key }),
      };
      const firstAnswer = await requests[first]();
      const secondAnswer = await requests[first === 'POST' ? 'GET' : 'POST']();
      const [refused, served] = first === 'POST' ? [firstAnswer, secondAnswer] : [secondAnswer, firstAnswer];
      expect(served.status).toBe(200);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({
        code: 'forbidden',
        message: 'This API key is read-only: it may call GET only.',
        status: 403,
      });
    },
  );

  it('answers 504 when a function runs past its timeout, and serves the next request', async () => {
    const key = await newKey('timeout');
    if (!dynamoDb) throw new Error('the stage run did not start');
    // Query is what ListPets waits on; the authorizer's GetItem goes through at once.
    dynamoDb.hold(({ operation }) => (operation === 'Query' ? { beforeMs: 2_000 } : undefined));
    let timedOut: StageResponse;
    const sent = Date.now();
    try {
      timedOut = await send('/v1/pets', { key });
    } finally {
      dynamoDb.hold(undefined);
    }
    expectGatewayError(timedOut, 'service_unavailable', 504);
    expect(timedOut.headers.get('retry-after')).toMatch(/^\d+$/);
    // Cut at the function's 1 s timeout, not answered once DynamoDB answered 2 s later.
    expect(Date.now() - sent).toBeLessThan(2_000);

    expect((await send('/v1/pets', { key })).status).toBe(200);
  });

  it('answers 502 when the instance is killed mid-request; a retry with the Idempotency-Key makes exactly one pet', async () => {
    const key = await newKey('killed');
    if (!stage || !dynamoDb) throw new Error('the stage run did not start');
    // One create first, so that CreatePetFunction has a warm instance and its pid is known:
    // creates one at a time keep one instance, the newest, which serves the next create.
    const warm = await send('/v1/pets', { key, method: 'POST', body: uniquePet('Warm') });
    expect(warm.status).toBe(201);
    await stage.waitFor(/\[CreatePetFunction:live\] cold start: instance pid \d+/);
    const pids = [...stage.output().matchAll(/\[CreatePetFunction:live\] cold start: instance pid (\d+)/g)];
    const pid = Number(pids.at(-1)?.[1]);

    const pet = uniquePet('Killed');
    const create = {
      key,
      method: 'POST',
      body: pet,
      headers: { 'Idempotency-Key': `stage-run-${randomUUID()}` },
    };
    // The pet's PutItem reaches the table, but its answer is held: the instance is killed
    // after the write and before it knows.
    dynamoDb.hold(({ operation, body }) =>
      operation === 'PutItem' && isPetPut(body, pet.name) ? { afterMs: 3_000 } : undefined,
    );
    let failed: StageResponse;
    let killedAt: number;
    try {
      const written = dynamoDb.nextHeldAnswer();
      const pending = send('/v1/pets', create);
      await written;
      process.kill(pid, 'SIGKILL');
      killedAt = Date.now();
      failed = await pending;
    } finally {
      dynamoDb.hold(undefined);
    }
    expectGatewayError(failed, 'service_unavailable', 502);
    expect(failed.headers.get('retry-after')).toMatch(/^\d+$/);
    // Answered when the instance died, not when the held answer would have come.
    expect(Date.now() - killedAt).toBeLessThan(2_000);

    // The dead request's claim stays in progress (409) until its lock expires; then a retry
    // takes it over and finds the pet already written under the claimed id.
    let retried = await send('/v1/pets', create);
    for (const deadline = Date.now() + 40_000; retried.status === 409 && Date.now() < deadline;) {
      await sleep(1_000);
      retried = await send('/v1/pets', create);
    }
    expect(retried.status).toBe(201);
    expect(retried.json).toMatchObject({ ...pet, status: 'available' });

    const listed = await send('/v1/pets?limit=100&status=available', { key });
    expect(listed.status).toBe(200);
    const named = (listed.json as { name: string }[]).filter((listedPet) => listedPet.name === pet.name);
    expect(named).toEqual([retried.json]);
  }, 90_000);
});

/** A PutItem of the pet with this name (not its idempotency claim, which names no pet yet). */
function isPetPut(body: string, name: string): boolean {
  const { Item } = JSON.parse(body) as { Item?: Record<string, { S?: string }> };
  const petPartitionPrefix = PET_PARTITIONS.replace('*', '');
  return Boolean(Item?.[TABLE_KEY.partitionKey]?.S?.startsWith(petPartitionPrefix)) && Item?.name?.S === name;
}
