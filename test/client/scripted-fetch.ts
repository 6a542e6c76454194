// The fetch of the client's tests: every real answer checked against openapi.json, and failures
// injected through the client's `fetch` option only, by a script of steps: the n-th request is sent
// to the real server, answered in its place, lost after the server handled it, or failed as a
// network fails. Every request the client sends is recorded.
import { assertResponseMatchesOpenApi } from '#test/support/openapi-contract.ts';

type Sent = {
  method: string;
  /** The path from /v1 on, with the query: '/v1/pets?limit=5'. */
  path: string;
  idempotencyKey: string | null;
  ifNoneMatch: string | null;
  body: string;
  /** Date.now() when the client sent it. */
  at: number;
};

/** What happens to one request; `attempt` counts the requests sent so far, this one included. */
export type Step = (request: Request, attempt: number) => Promise<Response>;

/** fetch, but every response must be one openapi.json describes. */
export async function contractCheckedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  const { pathname, search } = new URL(request.url);
  assertResponseMatchesOpenApi({
    method: request.method,
    path: pathname + search,
    status: response.status,
    headers: response.headers,
    bodyText: await response.clone().text(),
  });
  return response;
}

/** To the server; its answer is checked against openapi.json, as every real one in these tests. */
export const send: Step = (request) => contractCheckedFetch(request);

/** What fetch throws when the connection fails: undici's TypeError. */
export const networkError: Step = async () => {
  throw new TypeError('fetch failed');
};

const CODES: Record<number, string> = {
  409: 'idempotency_conflict',
  429: 'too_many_requests',
  500: 'internal_error',
};

/** An answer in the server's place, with the API's error body. */
export const answer =
  (status: number, headers: Record<string, string> = {}): Step =>
  async () => {
    const code = CODES[status] ?? 'service_unavailable';
    const body = JSON.stringify({ code, message: 'Injected by the test.', status });
    return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };

/** The request reaches the server, which handles it; its answer is lost and `then` happens instead. */
export const lostAfterSending =
  (then: Step): Step =>
  async (request, attempt) => {
    await (await send(request, attempt)).text();
    return then(request, attempt);
  };

/** The n-th request goes through `steps[n - 1]`, every later one through `otherwise`. */
export function scriptedFetch(steps: Step[], otherwise: Step = send) {
  const sent: Sent[] = [];
  const scripted = async (request: Request): Promise<Response> => {
    const { pathname, search } = new URL(request.url);
    sent.push({
      method: request.method,
      path: pathname + search,
      idempotencyKey: request.headers.get('Idempotency-Key'),
      ifNoneMatch: request.headers.get('If-None-Match'),
      body: await request.clone().text(),
      at: Date.now(),
    });
    const step = steps[sent.length - 1] ?? otherwise;
    return step(request, sent.length);
  };
  return { fetch: scripted, sent };
}
