// What a store client's answers cost on the wire, through the local gateway (it compresses as the stages
// do) on the fixture's table: each answer's bytes plain and gzipped, a 304 next to its 200, and a burst
// of 40 reads through the client package on a key limited as staging's are.
import { request } from 'node:http';
import { createPetStoreClient } from '../client/src/index.ts';
import type { UsagePlanDefinition } from '../local/api-gateway/definition.ts';
import { sourceApiGateway } from '../local/api-gateway/source-gateway.ts';
import type { SourceFunctions } from '../local/lambda/source-functions.ts';
import { startLocalServer } from '../local/server/http-server.ts';
import { STAGE_SETTINGS } from '../lib/stage-settings.ts';
import { rateLimitHeaders } from '../shared/http/rate-limit-policy.ts';
import { requestsIn } from '#bench/dynamodb/counting-proxy.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';

type AnswerSize = { answer: string; plainBytes: number; gzipBytes: number };
type Revalidation = {
  answer: string;
  bytes200: number;
  bytes304: number;
  dynamoDb200: number;
  dynamoDb304: number;
};
type Burst = { reads: number; succeeded: number; ms: number; throttledOnWire: number };
export type Wire = { sizes: AnswerSize[]; revalidation: Revalidation; burst: Burst };

/** The reads of the burst: beyond a staging key's bucket, as a client's page of thumbnails might be. */
export const BURST_READS = 40;

type Exchange = { status: number; etag: string; bytes: number };

/** One GET over node:http, which decompresses nothing: the body's bytes as they came. */
const get = (url: string, headers: Record<string, string>) =>
  new Promise<Exchange>((resolve, reject) => {
    request(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, etag: String(response.headers.etag ?? ''), bytes }),
      );
    })
      .on('error', reject)
      .end();
  });

const serve = (functions: SourceFunctions, usagePlan?: UsagePlanDefinition) =>
  startLocalServer({ gateway: sourceApiGateway(functions, usagePlan), port: 0 });

export async function measureWire(fixture: Fixture): Promise<Wire> {
  const server = await serve(fixture.functions);
  const auth = { Authorization: `Bearer ${fixture.apiKey}` };
  const answers = {
    'getPet, one animal': `/v1/pets/${fixture.petIds[0]}`,
    'listPets, a page of 20': '/v1/pets?limit=20',
    'listPets, a page of 100': '/v1/pets?limit=100',
    'an error (404)': '/v1/pets/9007199254740991',
  };
  try {
    const sizes: AnswerSize[] = [];
    for (const [answer, path] of Object.entries(answers)) {
      const plain = await get(`${server.url}${path}`, auth);
      const gzip = await get(`${server.url}${path}`, { ...auth, 'Accept-Encoding': 'gzip' });
      sizes.push({ answer, plainBytes: plain.bytes, gzipBytes: gzip.bytes });
    }
    const page = `${server.url}${answers['listPets, a page of 20']}`;
    fixture.proxy.reset();
    const full = await get(page, auth);
    const dynamoDb200 = requestsIn(fixture.proxy.counts());
    fixture.proxy.reset();
    const notModified = await get(page, { ...auth, 'If-None-Match': full.etag });
    if (notModified.status !== 304) throw new Error(`a revalidation answered ${notModified.status}`);
    const revalidation = {
      answer: 'listPets, a page of 20',
      bytes200: full.bytes,
      bytes304: notModified.bytes,
      dynamoDb200,
      dynamoDb304: requestsIn(fixture.proxy.counts()),
    };
    return { sizes, revalidation, burst: await measureBurst(fixture) };
  } finally {
    await server.close();
  }
}

/** 40 getPets at once through the client, on a key with staging's usage plan: how long, how many 429s. */
async function measureBurst(fixture: Fixture): Promise<Burst> {
  const { perKeyLimits } = STAGE_SETTINGS.staging;
  const functions = fixture.moreFunctions({
    stageHeaders: rateLimitHeaders(perKeyLimits),
  });
  const server = await serve(functions, { throttle: perKeyLimits });
  let throttledOnWire = 0;
  const client = createPetStoreClient({
    baseUrl: `${server.url}/v1`,
    apiKey: fixture.apiKey,
    fetch: async (sent: Request) => {
      const response = await fetch(sent);
      if (response.status === 429) throttledOnWire += 1;
      return response;
    },
  });
  try {
    const started = performance.now();
    const reads = await Promise.all(
      Array.from({ length: BURST_READS }, (_, i) =>
        client.GET('/pets/{petId}', { params: { path: { petId: fixture.petIds[i] ?? 1 } } }),
      ),
    );
    const ms = Math.round(performance.now() - started);
    const succeeded = reads.filter(({ response }) => response.status === 200).length;
    return { reads: BURST_READS, succeeded, ms, throttledOnWire };
  } finally {
    await server.close();
  }
}
