// Whether a target can be tested at all, asked with one request before the contract suite starts. A base
// URL where nothing answers, or something other than the pet store API, and a key the API refuses, each
// fail every test for the same one reason (with pages of `fetch failed`); here that reason is one line.
// Anything else the API answers, a 429 or a 5xx included, is the suite's to judge.
const TARGET_CHECK_TIMEOUT_MS = 15_000;

/** Why the suite cannot test the API at `baseUrl` with `apiKey`, or undefined when it can. */
export async function whyUntestable(baseUrl: string, apiKey: string): Promise<string | undefined> {
  const probe = `${baseUrl}/pets?limit=1`;
  let response: Response;
  try {
    response = await fetch(probe, {
      headers: { Authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(TARGET_CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${TARGET_CHECK_TIMEOUT_MS / 1_000} s`
        : // fetch says only "fetch failed"; its cause names the network error.
          ((error as Error).cause as Error | undefined)?.message || (error as Error).message;
    return `the API at ${baseUrl} does not answer (${reason})`;
  }
  const text = await response.text();
  if (response.status === 401)
    return `the key is refused (401) by the API at ${baseUrl}: give an active key of that API in PETSTORE_API_KEY`;
  if (response.status === 429 || response.status >= 500) return undefined;
  if (response.status === 200 && isJsonArray(text)) return undefined;
  const type = response.headers.get('content-type') ?? 'no Content-Type';
  const error = errorObject(text);
  const what = error ? `${error.code}: ${error.message}` : type;
  return `the API at ${baseUrl} does not answer as the pet store API: GET ${probe} is ${response.status} (${what})`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isJsonArray = (text: string) => Array.isArray(parse(text));

/** The API's Error object (`{code, message, status}`), when the body is one. */
function errorObject(text: string) {
  const body = parse(text) as { code?: unknown; message?: unknown } | undefined;
  return typeof body?.code === 'string' && typeof body.message === 'string'
    ? { code: body.code, message: body.message }
    : undefined;
}
