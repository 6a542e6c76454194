// The client's retries against the local server over real HTTP, every failure injected through its
// `fetch` option: what it sends again and what never, how long it waits when asked to, and a create
// whose answer was lost, which the server replays with the Idempotency-Key rather than adding twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPetStoreClient, listAllPets } from '#client/src/index.ts';
import type { PetStoreClientOptions, Retries } from '#client/src/index.ts';
import { startTestServer } from '#test/support/http.ts';
import { answer, lostAfterSending, networkError, scriptedFetch, send } from '#test/client/scripted-fetch.ts';
import type { Step } from '#test/client/scripted-fetch.ts';

/** Backoff in milliseconds, so that the tests wait for nothing but a Retry-After. */
const QUICK = { baseDelayMs: 1, maxDelayMs: 2 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: Awaited<ReturnType<typeof startTestServer>>;
let options: PetStoreClientOptions;

beforeAll(async () => {
  server = await startTestServer();
  options = { baseUrl: `${server.url}/v1`, apiKey: server.apiKey };
});
afterAll(() => server.close());

function scripted(steps: Step[], retries: Retries = QUICK, otherwise?: Step) {
  const { fetch, sent } = scriptedFetch(steps, otherwise);
  return { petstore: createPetStoreClient({ ...options, fetch, retries }), sent };
}

async function animalsNamed(name: string) {
  const named = [];
  const petstore = createPetStoreClient({ ...options, retries: 0 });
  for await (const pet of listAllPets(petstore, { limit: 100 })) if (pet.name === name) named.push(pet);
  return named;
}

const newAnimal = () => ({ name: `Pet ${randomUUID()}`, categoryId: 1 });
const listOne = { params: { query: { limit: 1 } } };

describe('what the client sends again', () => {
  it('returns the success that follows a 503', async () => {
    const { petstore, sent } = scripted([answer(503)]);
    const { data, response } = await petstore.GET('/pets', listOne);
    expect(response.status).toBe(200);
    expect(data).toEqual(expect.any(Array));
    expect(sent.map(({ method, path, idempotencyKey }) => ({ method, path, idempotencyKey }))).toEqual([
      { method: 'GET', path: '/v1/pets?limit=1', idempotencyKey: null },
      { method: 'GET', path: '/v1/pets?limit=1', idempotencyKey: null },
    ]);
  });

  it('sends a GET again after a network error', async () => {
    const { petstore, sent } = scripted([networkError]);
    const { response } = await petstore.GET('/pets', listOne);
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it.each([
    { lost: 'the connection drops', then: networkError },
    { lost: 'a 503 comes instead', then: answer(503, { 'Retry-After': '0' }) },
  ])('replays a create the server made when its answer is lost ($lost): one new animal', async ({ then }) => {
    const body = newAnimal();
    const { petstore, sent } = scripted([lostAfterSending(then)]);
    const { data, response } = await petstore.POST('/pets', { body });
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await animalsNamed(body.name)).toEqual([data]);
    const [first, second] = sent;
    expect(first?.idempotencyKey).toMatch(UUID);
    expect(second).toEqual({ ...first, at: expect.any(Number) });
    expect(sent).toHaveLength(2);
  });

  it("keeps the caller's own Idempotency-Key through the retries", async () => {
    const body = newAnimal();
    const key = `caller-${randomUUID()}`;
    const { petstore, sent } = scripted([lostAfterSending(answer(502, { 'Retry-After': '0' }))]);
    const params = { header: { 'Idempotency-Key': key } };
    const { data, response } = await petstore.POST('/pets', { params, body });
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(sent.map(({ idempotencyKey }) => idempotencyKey)).toEqual([key, key]);
    expect(await animalsNamed(body.name)).toEqual([data]);
  });

  it('gives each create a key of its own', async () => {
    const { petstore, sent } = scripted([]);
    await petstore.POST('/pets', { body: newAnimal() });
    await petstore.POST('/pets', { body: newAnimal() });
    const [first, second] = sent.map(({ idempotencyKey }) => idempotencyKey);
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it.each([
    { given: 'by default', retries: undefined, attempts: 3 },
    { given: 'with maxAttempts 2', retries: { maxAttempts: 2 }, attempts: 2 },
    { given: 'with maxAttempts 5', retries: { ...QUICK, maxAttempts: 5 }, attempts: 5 },
  ])('stops after $attempts attempts $given when 503 never ends, with the last 503', async (run) => {
    const numbered: Step = (request, attempt) =>
      answer(503, { 'Retry-After': '0', 'X-Attempt': String(attempt) })(request, attempt);
    const { fetch, sent } = scriptedFetch([], numbered);
    const petstore = createPetStoreClient({
      ...options,
      fetch,
      ...(run.retries && { retries: run.retries }),
    });
    const { error, response } = await petstore.GET('/pets', listOne);
    expect(sent).toHaveLength(run.attempts);
    expect(response.headers.get('X-Attempt')).toBe(String(run.attempts));
    expect(error).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
  });

  it('throws the network error of the last attempt', async () => {
    const { petstore, sent } = scripted([], { ...QUICK, maxAttempts: 2 }, networkError);
    await expect(petstore.GET('/pets', listOne)).rejects.toThrow(new TypeError('fetch failed'));
    expect(sent).toHaveLength(2);
  });

  it('cancels the body of an answer it does not read', async () => {
    let cancelled = false;
    const endless = new ReadableStream({
      pull: (controller) => controller.enqueue(new TextEncoder().encode(' ')),
      cancel: () => void (cancelled = true),
    });
    const unread: Step = async () => new Response(endless, { status: 503, headers: { 'Retry-After': '0' } });
    const { petstore } = scripted([unread]);
    expect((await petstore.GET('/pets', listOne)).response.status).toBe(200);
    expect(cancelled).toBe(true);
  });
});

describe('what the client never sends again', () => {
  it('sends a request the server answers 400 once', async () => {
    const { petstore, sent } = scripted([]);
    const { error } = await petstore.GET('/pets', { params: { query: { cursor: 'not-a-cursor' } } });
    expect(error?.status).toBe(400);
    expect(sent).toHaveLength(1);
  });

  it('sends a request the server answers 404 once', async () => {
    const { petstore, sent } = scripted([]);
    const { error } = await petstore.GET('/pets/{petId}', { params: { path: { petId: 999_999_999 } } });
    expect(error?.status).toBe(404);
    expect(sent).toHaveLength(1);
  });

  it('sends a create the server answers 422 once', async () => {
    const params = { header: { 'Idempotency-Key': `reused-${randomUUID()}` } };
    await createPetStoreClient(options).POST('/pets', { params, body: newAnimal() });
    const { petstore, sent } = scripted([]);
    const { error } = await petstore.POST('/pets', { params, body: newAnimal() });
    expect(error?.status).toBe(422);
    expect(sent).toHaveLength(1);
  });

  it.each([409, 500, 501])('sends a keyed create answered %i once', async (status) => {
    const { petstore, sent } = scripted([answer(status)]);
    const { response } = await petstore.POST('/pets', { body: newAnimal() });
    expect(response.status).toBe(status);
    expect(sent).toHaveLength(1);
  });

  it.each([0, false, { maxAttempts: 0 }, { maxAttempts: 1 }] as const)(
    'sends a create once, with a key of its own all the same, with retries %p',
    async (retries) => {
      const { petstore, sent } = scripted([answer(503, { 'Retry-After': '0' })], retries);
      const { response } = await petstore.POST('/pets', { body: newAnimal() });
      expect(response.status).toBe(503);
      expect(sent).toEqual([
        expect.objectContaining({ method: 'POST', idempotencyKey: expect.stringMatching(UUID) }),
      ]);
    },
  );

  it('sends a POST elsewhere than /pets once, with no key of its own', async () => {
    const { petstore, sent } = scripted([answer(503, { 'Retry-After': '0' })]);
    const untyped = petstore as unknown as {
      POST(path: string, init: object): Promise<{ response: Response }>;
    };
    const { response } = await untyped.POST('/pets/1', { body: newAnimal() });
    expect(response.status).toBe(503);
    expect(sent).toEqual([expect.objectContaining({ path: '/v1/pets/1', idempotencyKey: null })]);
  });

  it('sends an aborted request once, and throws its abort', async () => {
    const controller = new AbortController();
    const abortThenSend: Step = (request, attempt) => {
      controller.abort();
      return send(request, attempt);
    };
    const { petstore, sent } = scripted([abortThenSend]);
    const listing = petstore.GET('/pets', { ...listOne, signal: controller.signal });
    await expect(listing).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
  });

  it('sends a request once when its fetch throws an AbortError of its own', async () => {
    const timedOut: Step = async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    };
    const { petstore, sent } = scripted([timedOut]);
    await expect(petstore.GET('/pets', listOne)).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
  });

  // Were the wait not ended, the test would outlast jest's timeout (30 s) and fail.
  it('ends a wait for Retry-After as soon as the request is aborted', async () => {
    const controller = new AbortController();
    const abortSoon: Step = async (request, attempt) => {
      setTimeout(() => controller.abort(), 10);
      return answer(503, { 'Retry-After': '60' })(request, attempt);
    };
    const { petstore, sent } = scripted([abortSoon], { maxRetryAfterMs: 120_000 });
    const listing = petstore.GET('/pets', { ...listOne, signal: controller.signal });
    await expect(listing).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
  });
});

describe('how long the client waits', () => {
  it('waits maxRetryAfterMs, not longer, for a longer Retry-After, then sends again', async () => {
    const { petstore, sent } = scripted([answer(429, { 'Retry-After': '3600' })], {
      ...QUICK,
      maxRetryAfterMs: 200,
    });
    const { response } = await petstore.GET('/pets', listOne);
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(2);
    const [first = 0, second = 0] = sent.map(({ at }) => at);
    expect(second - first).toBeGreaterThanOrEqual(190);
  });

  it('waits at least the 1 s a 429 Retry-After asks for, then succeeds', async () => {
    const { petstore, sent } = scripted([answer(429, { 'Retry-After': '1' })]);
    const { response } = await petstore.GET('/pets', listOne);
    expect(response.status).toBe(200);
    const [first = 0, second = 0] = sent.map(({ at }) => at);
    expect(second - first).toBeGreaterThanOrEqual(990);
  });

  it('waits until the HTTP-date a Retry-After names', async () => {
    const until = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const { petstore, sent } = scripted([answer(503, { 'Retry-After': new Date(until).toUTCString() })]);
    const { response } = await petstore.GET('/pets', listOne);
    expect(response.status).toBe(200);
    expect(sent[1]?.at).toBeGreaterThanOrEqual(until - 10);
  });
});

describe('the retries option', () => {
  it.each([
    [{ maxAttempts: -1 }, 'retries.maxAttempts must be a whole number, 0 or more; got -1'],
    [{ maxAttempts: 2.5 }, 'retries.maxAttempts must be a whole number, 0 or more; got 2.5'],
    [{ maxAttempts: '3' }, 'retries.maxAttempts must be a whole number, 0 or more; got "3"'],
    [{ maxAttempts: Number.NaN }, 'retries.maxAttempts must be a whole number, 0 or more; got NaN'],
    [{ baseDelayMs: -5 }, 'retries.baseDelayMs must be a finite number of milliseconds, 0 or more; got -5'],
    [
      { maxDelayMs: Infinity },
      'retries.maxDelayMs must be a finite number of milliseconds, 0 or more; got Infinity',
    ],
    [
      { maxAttempt: 3 },
      'retries has no option maxAttempt: the options are maxAttempts, baseDelayMs, maxDelayMs, maxRetryAfterMs',
    ],
    [true, 'retries must be 0, false or { maxAttempts, ... }; got true'],
    [3, 'retries must be 0, false or { maxAttempts, ... }; got 3'],
    [null, 'retries must be 0, false or { maxAttempts, ... }; got null'],
  ])('refuses %p at creation with a TypeError', (retries, message) => {
    const create = () => createPetStoreClient({ ...options, retries: retries as Retries });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(message);
  });

  it.each([{}, { maxAttempts: 0 }, { maxAttempts: 10, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 }])(
    'accepts %p',
    (retries) => {
      expect(() => createPetStoreClient({ ...options, retries })).not.toThrow();
    },
  );
});
