// The local gateway's stage cache, on a clock of the test's own and a stand-in for the functions: a
// cached method's answers are served for the TTL under the values of its key parameters only, to every
// key the authorizer allows, after the throttles and the usage plan (a hit still counts); other methods
// and API Gateway's own answers are never cached.
import type { APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from '@jest/globals';
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import type { ApiDefinition } from '#local/api-gateway/definition.ts';
import { createApiGateway } from '#local/api-gateway/gateway.ts';
import type { GatewayRequest } from '#local/api-gateway/gateway.ts';
import { MAX_CACHED_BYTES, cacheKeyOf, createResponseCache } from '#local/api-gateway/response-cache.ts';
import type { FunctionRunner, Invocation } from '#local/lambda/runner.ts';
import { defined } from '#test/support/defined.ts';

const TTL_SECONDS = 5;
const KEY_PARAMETERS = ['limit', 'status', 'cursor'].map((name) => `method.request.querystring.${name}`);
const LIST_PETS = { httpMethod: 'GET', resource: '/pets' };

const answer = (body: string, statusCode = 200): APIGatewayProxyResult => ({ statusCode, headers: {}, body });

describe('the cache key', () => {
  const cache = { ttlSeconds: TTL_SECONDS, keyParameters: KEY_PARAMETERS };
  const keyOf = (query: string, headers: [string, string][] = []) =>
    cacheKeyOf(LIST_PETS, cache, { query, pathParameters: {}, headers });

  it('is the values of the key parameters, in any order, whatever else the request carries', () => {
    expect(keyOf('limit=5&status=sold')).toBe(keyOf('status=sold&limit=5&unknown=1'));
    expect(keyOf('limit=5', [['Authorization', 'Bearer a']])).toBe(
      keyOf('limit=5', [['Authorization', 'Bearer b']]),
    );
  });

  it('tells apart each value, an absent parameter from an empty one, and another method', () => {
    const keys = [keyOf(''), keyOf('limit='), keyOf('limit=5'), keyOf('limit=6'), keyOf('cursor=abc.def')];
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      cacheKeyOf({ httpMethod: 'GET', resource: '/other' }, cache, {
        query: '',
        pathParameters: {},
        headers: [],
      }),
    ).not.toBe(keyOf(''));
  });

  it("is none for a repeated key parameter, which production's web ACL answers before the cache", () => {
    expect(keyOf('limit=6&limit=5')).toBeUndefined();
    expect(keyOf('status=sold&limit=5&status=sold')).toBeUndefined();
    expect(keyOf('limit=5&other=1&other=2')).toBe(keyOf('limit=5'));
  });

  it('reads path parameters and headers (any case) when the key names them', () => {
    const byPathAndHeader = {
      ttlSeconds: 1,
      keyParameters: ['method.request.path.petId', 'method.request.header.Accept'],
    };
    const keyFor = (petId: string, accept: string) =>
      cacheKeyOf({ httpMethod: 'GET', resource: '/pets/{petId}' }, byPathAndHeader, {
        query: '',
        pathParameters: { petId },
        headers: [['accept', accept]],
      });
    expect(keyFor('1', 'a')).not.toBe(keyFor('2', 'a'));
    expect(keyFor('1', 'a')).not.toBe(keyFor('1', 'b'));
  });
});

describe('the cache', () => {
  it('keeps an answer for its TTL from when it was stored, then forgets it', () => {
    let now = 1_000_000;
    const cache = createResponseCache(() => now);
    cache.store('k', TTL_SECONDS, answer('[1]'));
    now += TTL_SECONDS * 1000 - 1;
    expect(cache.lookup('k')).toEqual(answer('[1]'));
    now += 1;
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('hands out copies, so that what one answer gains reaches no other', () => {
    const cache = createResponseCache(() => 0);
    cache.store('k', TTL_SECONDS, answer('[1]'));
    const first = defined(cache.lookup('k'), 'a cached answer');
    (first.headers as Record<string, string>)['x-amzn-RequestId'] = 'r1';
    expect(cache.lookup('k')?.headers).toEqual({});
  });

  it("does not keep an answer over API Gateway's 1 MB", () => {
    const cache = createResponseCache(() => 0);
    cache.store('big', TTL_SECONDS, answer('x'.repeat(MAX_CACHED_BYTES + 1)));
    cache.store('fits', TTL_SECONDS, answer('x'.repeat(MAX_CACHED_BYTES)));
    expect(cache.lookup('big')).toBeUndefined();
    expect(cache.lookup('fits')).toBeDefined();
  });
});

/**
 * The gateway of `npm start`'s definition, with GET /pets cached as production caches it, the
 * stage's and the usage plan's limits given, and functions that count their calls: the authorizer
 * allows any token as the key it names, and each route answers with its call count.
 */
function cachedGateway(limits: Pick<ApiDefinition, 'methodThrottle' | 'usagePlan'> = {}) {
  let now = Date.UTC(2026, 0, 1);
  const modules = apiDefinitionFromModules();
  const definition: ApiDefinition = {
    ...modules,
    ...limits,
    methods: modules.methods.map((method) =>
      method.resource === '/pets' && method.httpMethod === 'GET'
        ? { ...method, cache: { ttlSeconds: TTL_SECONDS, keyParameters: KEY_PARAMETERS } }
        : method,
    ),
  };
  const calls: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const functions: FunctionRunner = {
    async invoke(functionName, event): Promise<Invocation> {
      calls[functionName] = (calls[functionName] ?? 0) + 1;
      if (functionName === 'authorizer') {
        const token = String((event as { authorizationToken: string }).authorizationToken).split(' ')[1];
        return {
          ok: true,
          result: {
            principalId: token,
            usageIdentifierKey: token,
            policyDocument: {
              Version: '2012-10-17',
              Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' }],
            },
          },
        };
      }
      const failure = statuses[functionName];
      if (failure === 502) return { ok: false, failure: 'error', message: 'crashed' };
      return { ok: true, result: answer(JSON.stringify({ call: calls[functionName] }), failure ?? 200) };
    },
    close: async () => {},
  };
  const gateway = createApiGateway({ definition, functions, now: () => now });
  let requests = 0;
  const send = async (
    target: string,
    { key = 'alice', method = 'GET', headers = [] as [string, string][] } = {},
  ) => {
    const request: GatewayRequest = {
      method,
      target,
      headers: [['Authorization', `Bearer ${key}`], ...headers],
      body: Buffer.alloc(0),
      bodyBytes: 0,
      sourceIp: '127.0.0.1',
      requestId: `r${(requests += 1)}`,
    };
    const response = await gateway(request);
    return { status: response.statusCode, body: JSON.parse(response.body) as unknown };
  };
  return { send, calls, statuses, advance: (ms: number) => (now += ms) };
}

describe('the gateway with GET /pets cached', () => {
  it('answers a page from the cache, to every key, until the TTL is over', async () => {
    const { send, calls, advance } = cachedGateway();
    expect(await send('/v1/pets?limit=5')).toEqual({ status: 200, body: { call: 1 } });
    advance(TTL_SECONDS * 1000 - 1);
    expect(await send('/v1/pets?limit=5', { key: 'bob' })).toEqual({ status: 200, body: { call: 1 } });
    expect(await send('/v1/pets?limit=5&other=1', { headers: [['Cache-Control', 'max-age=0']] })).toEqual({
      status: 200,
      body: { call: 1 },
    });
    expect(calls.listPets).toBe(1);
    // The authorizer still ran for each request (here without its own cache).
    expect(calls.authorizer).toBe(3);

    advance(1);
    expect(await send('/v1/pets?limit=5')).toEqual({ status: 200, body: { call: 2 } });
  });

  it('keeps one entry per limit, status and cursor', async () => {
    const { send, calls } = cachedGateway();
    for (const query of ['', 'limit=5', 'limit=6', 'status=sold', 'cursor=abc'])
      await send(`/v1/pets?${query}`);
    expect(calls.listPets).toBe(5);
    expect(await send('/v1/pets?limit=6')).toEqual({ status: 200, body: { call: 3 } });
  });

  it("caches the function's error answers too, but not API Gateway's own", async () => {
    const { send, calls, statuses, advance } = cachedGateway();
    statuses.listPets = 400;
    expect((await send('/v1/pets?limit=0')).status).toBe(400);
    statuses.listPets = 200;
    expect((await send('/v1/pets?limit=0')).status).toBe(400);
    expect(calls.listPets).toBe(1);

    advance(TTL_SECONDS * 1000);
    statuses.listPets = 502;
    expect((await send('/v1/pets?limit=0')).status).toBe(502);
    statuses.listPets = 200;
    expect(await send('/v1/pets?limit=0')).toEqual({ status: 200, body: { call: 3 } });
  });

  it('caches no other method', async () => {
    const { send, calls } = cachedGateway();
    for (let i = 0; i < 2; i++) {
      await send('/v1/pets/1');
      await send('/v1/pets', { method: 'POST' });
    }
    expect(calls).toMatchObject({ getPet: 2, createPet: 2 });
  });

  it('looks up after the throttle and the usage plan: a hit counts against both', async () => {
    const { send, calls } = cachedGateway({
      methodThrottle: { rateLimit: 1, burstLimit: 3 },
      usagePlan: { quota: { limit: 2, period: 'DAY' } },
    });
    expect((await send('/v1/pets')).status).toBe(200);
    expect((await send('/v1/pets')).status).toBe(200);
    expect(await send('/v1/pets')).toMatchObject({ status: 429, body: { code: 'too_many_requests' } });
    expect((await send('/v1/pets', { key: 'bob' })).status).toBe(429);
    expect(calls.listPets).toBe(1);
  });
});
