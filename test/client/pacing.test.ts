// The client's pace against a scripted API that throttles as API Gateway does (a token bucket per
// key, a 429 with Retry-After when it is empty), on jest's fake clock so that seconds of pacing take
// none: a burst of calls waits its turn instead of earning 429s, and a Retry-After holds every request.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createPetStoreClient } from '#client/src/index.ts';
import type { PetStoreClientOptions } from '#client/src/index.ts';
import { answer, scriptedFetch } from '#test/client/scripted-fetch.ts';
import type { Step } from '#test/client/scripted-fetch.ts';

const POLICY = '"rate";q=5;w=1;petstore-burst=10, "daily";q=10000;w=86400';
const listOne = { params: { query: { limit: 1 } } };

/** An answer of the API: an empty page, with the key's RateLimit-Policy when it has one. */
const page = (policy?: string) =>
  new Response('[]', {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...(policy && { 'RateLimit-Policy': policy }) },
  });

type Throttle = { perSecond: number; burst: number; policy?: string };

/** The API's throttle on one key: a bucket of `burst` tokens refilled `perSecond`, on the fake clock. */
function throttledApi({ perSecond, burst, policy = POLICY }: Throttle) {
  let tokens = burst;
  let at = Date.now();
  const api = {
    throttled: 0,
    step: (async (request, attempt) => {
      const now = Date.now();
      tokens = Math.min(burst, tokens + ((now - at) * perSecond) / 1000);
      at = now;
      if (tokens < 1) {
        api.throttled += 1;
        return answer(429, { 'Retry-After': '1', 'RateLimit-Policy': policy })(request, attempt);
      }
      tokens -= 1;
      return page(policy);
    }) satisfies Step,
    /** Another client of the key spends every token. */
    drain() {
      tokens = 0;
      at = Date.now();
    },
  };
  return api;
}

function client(otherwise: Step, steps: Step[] = [], options: Partial<PetStoreClientOptions> = {}) {
  const { fetch, sent } = scriptedFetch(steps, otherwise);
  const petstore = createPetStoreClient({
    baseUrl: 'https://api.example.com/v1',
    apiKey: 'k',
    fetch,
    ...options,
  });
  /** When each request went out, in milliseconds of the fake clock from `start`. */
  const times = (start: number) => sent.map(({ at }) => at - start);
  return { petstore, sent, times };
}

/** Runs `calls` to their end on the fake clock. */
async function settle<T>(calls: Promise<T>): Promise<T> {
  await jest.runAllTimersAsync();
  return calls;
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('the pace the API sets', () => {
  it('lets 40 reads at once through a key of 5 a second, burst 10: every one succeeds, no 429 on the wire', async () => {
    const api = throttledApi({ perSecond: 5, burst: 10 });
    const { petstore, times } = client(api.step);
    const start = Date.now();
    const answers = await settle(
      Promise.all(Array.from({ length: 40 }, () => petstore.GET('/pets', listOne))),
    );
    expect(answers.map(({ response }) => response.status)).toEqual(Array(40).fill(200));
    expect(api.throttled).toBe(0);
    // 10 at once (the first alone, to learn the policy), then one each 200 ms: 30 more in 6 s.
    const sentAt = times(start);
    expect(sentAt.filter((ms) => ms === 0)).toHaveLength(10);
    expect(Math.max(...sentAt)).toBeGreaterThanOrEqual(6_000);
    expect(Math.max(...sentAt)).toBeLessThan(7_000);
  });

  it('keeps to the pace across calls: after a burst, the next call waits for its token', async () => {
    const api = throttledApi({ perSecond: 2, burst: 3, policy: '"rate";q=2;w=1;petstore-burst=3' });
    const { petstore, times } = client(api.step);
    const start = Date.now();
    await settle(Promise.all(Array.from({ length: 3 }, () => petstore.GET('/pets', listOne))));
    await settle(petstore.GET('/pets', listOne));
    expect(times(start)).toEqual([0, 0, 0, 500]);
    expect(api.throttled).toBe(0);
  });

  it('takes a 429 to mean the bucket is empty: after its Retry-After comes the pace, not a burst', async () => {
    const api = throttledApi({ perSecond: 5, burst: 10 });
    const { petstore, times } = client(api.step, [], { retries: 0 });
    const start = Date.now();
    await settle(petstore.GET('/pets', listOne));
    api.drain();
    expect((await settle(petstore.GET('/pets', listOne))).response.status).toBe(429);
    await settle(Promise.all(Array.from({ length: 10 }, () => petstore.GET('/pets', listOne))));
    expect(api.throttled).toBe(1);
    // 1 s after the 429, the bucket holds 5 tokens again, then one more each 200 ms.
    expect(times(start)).toEqual([0, 0, ...Array(5).fill(1_000), 1_200, 1_400, 1_600, 1_800, 2_000]);
  });

  it('sends every request at once after a first answer without a policy', async () => {
    const { petstore, times } = client(async () => page());
    const start = Date.now();
    await settle(Promise.all(Array.from({ length: 40 }, () => petstore.GET('/pets', listOne))));
    expect(times(start)).toEqual(Array(40).fill(0));
  });

  it.each([
    ['alone', '"daily";q=20;w=86400'],
    ['beside a rate', '"rate";q=100;w=1, "daily";q=20;w=86400'],
  ])('does not pace by a daily quota %s, even one the calls exceed', async (_, policy) => {
    const { petstore, times } = client(async () => page(policy));
    const start = Date.now();
    await settle(Promise.all(Array.from({ length: 40 }, () => petstore.GET('/pets', listOne))));
    expect(times(start)).toEqual(Array(40).fill(0));
  });

  it('holds the others until the first answer, but not longer than 2 s', async () => {
    const slow: Step = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return page();
    };
    const { petstore, times } = client(async () => page(), [slow]);
    const start = Date.now();
    await settle(Promise.all(Array.from({ length: 3 }, () => petstore.GET('/pets', listOne))));
    expect(times(start)).toEqual([0, 2_000, 2_000]);
  });

  it('ends the wait of an aborted request at once, without sending it', async () => {
    const api = throttledApi({ perSecond: 1, burst: 1, policy: '"rate";q=1;w=1' });
    const { petstore, sent } = client(api.step);
    await settle(petstore.GET('/pets', listOne));
    const controller = new AbortController();
    const waiting = petstore.GET('/pets', { ...listOne, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
    await settle(petstore.GET('/pets', listOne));
    expect(sent).toHaveLength(2);
  });
});

describe('Retry-After', () => {
  const throttled = answer(429, { 'Retry-After': '2' });

  it('holds every request of the client, a create too, until the time a 429 names', async () => {
    const { petstore, times } = client(async () => page(), [throttled], { retries: 0 });
    const start = Date.now();
    expect((await settle(petstore.GET('/pets', listOne))).response.status).toBe(429);
    const [read, create] = await settle(
      Promise.all([
        petstore.GET('/pets', listOne),
        petstore.POST('/pets', { body: { name: 'Rex', categoryId: 1 } }),
      ]),
    );
    expect([read.response.status, create.response.status]).toEqual([200, 200]);
    expect(times(start)).toEqual([0, 2_000, 2_000]);
  });

  it('is retried after, with the calls that came meanwhile', async () => {
    const { petstore, times } = client(async () => page(), [throttled]);
    const start = Date.now();
    const first = petstore.GET('/pets', listOne);
    await jest.advanceTimersByTimeAsync(500);
    const answers = await settle(Promise.all([first, petstore.GET('/pets', listOne)]));
    expect(answers.map(({ response }) => response.status)).toEqual([200, 200]);
    expect(times(start).toSorted()).toEqual([0, 2_000, 2_000]);
  });

  it('holds requests no longer than maxRetryAfterMs', async () => {
    const forAnHour = answer(429, { 'Retry-After': '3600' });
    const { petstore, times } = client(async () => page(), [forAnHour], {
      retries: { maxAttempts: 1, maxRetryAfterMs: 500 },
    });
    const start = Date.now();
    await settle(petstore.GET('/pets', listOne));
    await settle(petstore.GET('/pets', listOne));
    expect(times(start)).toEqual([0, 500]);
  });
});
