// The synthetic probe: a few requests a healthy pet store API answers as its contract says, each step
// judged in one line. Plain fetch, nothing of AWS, so that the canary (canary.ts) and `npm run probe`
// run the same steps against a deployed or a local API. A run passes when no step failed: a step that
// needs a failed one, or that an empty store cannot show, is skipped.
import { randomUUID } from 'node:crypto';
import type { NewPet, Pet as ApiPet, PetStatus } from '#client/src/index.ts';
import { nextLink } from '#client/src/pagination.ts';
import { MISSING_PET_ID } from '#functions/manifests.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
import { BASE_PATH } from '#shared/http/routes.ts';

export type ProbeOptions = {
  /** The API's base URL, ending in /v1 (a trailing slash is fine). */
  baseUrl: string;
  apiKey: string;
  /** True: also create a pet and replay its creation (staging, never production). */
  creates: boolean;
  /** How long each request may take, its body included. */
  timeoutMs?: number;
};

/** A skipped step was not judged: a step it needs failed, or the store holds too few pets to show it. */
type StepOutcome = 'ok' | 'fail' | 'skip';
/** The detail is a failure's one line, or why the step was skipped. */
export type StepResult = { step: string; outcome: StepOutcome; detail?: string };

const DEFAULT_TIMEOUT_MS = 10_000;
const FILTERED_STATUS: PetStatus = 'available';
const NEXT_LINK_EXPECTED = `a Link header <${BASE_PATH}/pets?...>; rel="next"`;
/** Four letters each, so that the steps' names line up. */
const OUTCOME_LABELS: Record<StepOutcome, string> = { ok: 'ok  ', fail: 'FAIL', skip: 'skip' };

/** A step's one line of failure: the request, what was expected and what came back. */
class StepFailure extends Error {}
/** Why a step was not judged. */
class StepSkipped extends Error {}

/** What the steps read of a pet. */
type Pet = Pick<ApiPet, 'id' | 'name' | 'status'>;
type Answer = { request: string; status: number; headers: Headers; body: unknown };
/** The run's one pet to create, and the key that makes its second request a replay. */
type Creation = { newPet: NewPet; idempotencyKey: string };

function isPet(value: unknown): value is Pet {
  const pet = value as Partial<Pet> | null;
  return (
    typeof pet === 'object' &&
    pet !== null &&
    Number.isSafeInteger(pet.id) &&
    typeof pet.name === 'string' &&
    typeof pet.status === 'string'
  );
}
const isPetsUpTo =
  (max: number) =>
  (body: unknown): body is Pet[] =>
    Array.isArray(body) && body.length <= max && body.every(isPet);
const isOnePet = (body: unknown): body is [Pet] => Array.isArray(body) && body.length === 1 && isPet(body[0]);
const isNotFound = (body: unknown): body is { code: 'not_found' } =>
  (body as { code?: unknown } | null)?.code === 'not_found';

/** A failed step's value: the step that needs it is skipped, as the failed one already fails the run. */
function needs<T>(value: T | undefined, step: string): T {
  if (value === undefined) throw new StepSkipped(`needs ${step}`);
  return value;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What came back, in a few words: the Error's code when the body is one. */
function described({ status, headers, body }: Answer): string {
  const error = body as { code?: unknown } | undefined;
  if (typeof error?.code === 'string') return `${status} ${error.code}`;
  if (body === undefined)
    return `${status} with a body that is not JSON (${headers.get('content-type') ?? 'no Content-Type'})`;
  if (Array.isArray(body)) return `${status} with an array of ${body.length}`;
  return `${status} with ${JSON.stringify(body).slice(0, 80)}`;
}

function expectAnswer<T>(
  answer: Answer,
  status: number,
  what: string,
  fits: (body: unknown) => body is T,
): T {
  if (answer.status !== status || !fits(answer.body))
    throw new StepFailure(`${answer.request}: expected ${status} with ${what}, got ${described(answer)}`);
  return answer.body;
}

/** Why a request got no answer: fetch says only "fetch failed", its cause names the network error. */
function noAnswer(error: Error, timeoutMs: number): string {
  if (error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  const code = cause?.code ?? cause?.message ?? error.message;
  return cause?.syscall === 'connect' || cause?.syscall === 'getaddrinfo'
    ? `could not connect (${code})`
    : `the request failed (${code})`;
}

/** Sends one request to a path from /v1 on, as the API's own Link headers are, with the key. */
function sender({ baseUrl, apiKey, timeoutMs = DEFAULT_TIMEOUT_MS }: ProbeOptions) {
  const trimmed = baseUrl.replace(/\/$/, '');
  if (!trimmed.endsWith(BASE_PATH))
    throw new Error(`The probe's base URL must end in ${BASE_PATH}: ${baseUrl}`);
  // The path goes to what comes before the base URL's /v1: never to another host, which would get the key.
  const root = trimmed.slice(0, -BASE_PATH.length);
  return async (method: 'GET' | 'POST', path: string, create?: Creation): Promise<Answer> => {
    const request = `${method} ${path}`;
    try {
      const response = await fetch(`${root}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${apiKey}`,
          ...(create && { 'Content-Type': 'application/json', 'Idempotency-Key': create.idempotencyKey }),
        },
        body: create && JSON.stringify(create.newPet),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // What the API sends back reaches the step's line: an API that echoes the key must not get it printed.
      const redacted = (value: string) => value.replaceAll(apiKey, '<key>');
      const headers = new Headers([...response.headers].map(([name, value]) => [name, redacted(value)]));
      return { request, status: response.status, headers, body: parsed(redacted(await response.text())) };
    } catch (error) {
      throw new StepFailure(`${request}: ${noAnswer(error as Error, timeoutMs)}`);
    }
  };
}
type Send = ReturnType<typeof sender>;

/** The first page, one pet at most: an empty store is a healthy one. */
async function listPets(send: Send) {
  const answer = await send('GET', `${BASE_PATH}/pets?limit=1`);
  const pets = expectAnswer(answer, 200, 'an array of at most 1 pet', isPetsUpTo(1));
  return { request: answer.request, pet: pets[0], link: answer.headers.get('link') };
}
type FirstPage = Awaited<ReturnType<typeof listPets>>;

/** The next page, by the first page's `Link: </v1/pets?...>; rel="next"`: the pet after the first. */
async function nextPage(send: Send, first: FirstPage) {
  const got = first.link === null ? 'none' : `Link: ${first.link}`;
  const target = nextLink(first.link);
  if (target === undefined) return noNextPage(send, first, got);
  // The API never sends an empty page with a next link.
  if (first.pet === undefined)
    throw new StepFailure(`${first.request}: expected no Link rel="next" on an empty page, got ${got}`);
  if (!target.startsWith(`${BASE_PATH}/pets?`))
    throw new StepFailure(`${first.request}: expected ${NEXT_LINK_EXPECTED}, got ${got}`);
  const { id } = first.pet;
  const answer = await send('GET', target);
  const after = (body: unknown): body is [Pet] => isOnePet(body) && body[0].id > id;
  expectAnswer(answer, 200, `an array of 1 pet whose id is above ${id}`, after);
}

/** No next link: right in a store of fewer than 2 pets, a lost header in a larger one, as ?limit=2 tells. */
async function noNextPage(send: Send, first: FirstPage, got: string): Promise<never> {
  const answer = await send('GET', `${BASE_PATH}/pets?limit=2`);
  const pets = expectAnswer(answer, 200, 'an array of at most 2 pets', isPetsUpTo(2));
  if (pets.length === 2)
    throw new StepFailure(
      `${first.request}: expected ${NEXT_LINK_EXPECTED}, got ${got}, though ${answer.request} gave 2 pets`,
    );
  throw new StepSkipped(
    `the store holds fewer than 2 pets (${answer.request} gave an array of ${pets.length}), ` +
      'so there is no next page',
  );
}

async function statusFilter(send: Send) {
  const answer = await send('GET', `${BASE_PATH}/pets?status=${FILTERED_STATUS}&limit=1`);
  const filtered = (body: unknown): body is Pet[] =>
    Array.isArray(body) && body.every((pet) => isPet(pet) && pet.status === FILTERED_STATUS);
  expectAnswer(answer, 200, `an array of ${FILTERED_STATUS} pets`, filtered);
}

/** getPet, deprecated: the listed pet, or with none listed a 404; either with the headers that say so. */
async function getPet(send: Send, pet: Pet | undefined) {
  const id = pet?.id ?? MISSING_PET_ID;
  const answer = await send('GET', `${BASE_PATH}/pets/${id}`);
  if (pet === undefined) expectAnswer(answer, 404, 'the Error not_found', isNotFound);
  else expectAnswer(answer, 200, `pet ${id}`, (body): body is Pet => isPet(body) && body.id === id);
  const wrong = Object.entries(GET_PET_DEPRECATION_HEADERS).flatMap(([name, value]) => {
    const got = answer.headers.get(name);
    return got === value ? [] : [`expected header ${name}: ${value}, got ${got ?? 'none'}`];
  });
  if (wrong.length > 0) throw new StepFailure(`${answer.request}: ${wrong.join('; ')}`);
}

/** The run's one creation sent: 201 with the pet and its Location, first or replayed as `replayed` says. */
async function createPet(send: Send, create: Creation, replayed: boolean): Promise<number> {
  const { name } = create.newPet;
  const answer = await send('POST', `${BASE_PATH}/pets`, create);
  const named = (body: unknown): body is Pet => isPet(body) && body.name === name;
  const { id } = expectAnswer(answer, 201, `the pet "${name}"`, named);
  const location = answer.headers.get('location');
  if (location !== `${BASE_PATH}/pets/${id}`)
    throw new StepFailure(
      `${answer.request}: expected Location: ${BASE_PATH}/pets/${id}, got ${location ?? 'none'}`,
    );
  const replay = answer.headers.get('idempotent-replayed');
  if ((replay === 'true') !== replayed)
    throw new StepFailure(
      `${answer.request}: expected ${replayed ? 'Idempotent-Replayed: true' : 'no Idempotent-Replayed'}, ` +
        `got ${replay ?? 'none'}`,
    );
  return id;
}

/** The probe's steps against the API at `baseUrl`, in order, each passed, failed or skipped. */
export async function runProbe(options: ProbeOptions): Promise<StepResult[]> {
  const send = sender(options);
  const results: StepResult[] = [];
  async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      results.push({ step: name, outcome: 'ok' });
      return value;
    } catch (error) {
      if (!(error instanceof StepFailure || error instanceof StepSkipped)) throw error;
      const outcome = error instanceof StepSkipped ? 'skip' : 'fail';
      results.push({ step: name, outcome, detail: error.message });
      return undefined;
    }
  }

  const first = await step('list pets', () => listPets(send));
  await step('next page', () => nextPage(send, needs(first, 'list pets')));
  await step('status filter', () => statusFilter(send));
  await step('get pet', () => getPet(send, needs(first, 'list pets').pet));
  if (options.creates) {
    const create: Creation = {
      newPet: { name: `probe ${new Date().toISOString()}`, categoryId: 1, status: FILTERED_STATUS },
      idempotencyKey: randomUUID(),
    };
    const created = await step('create pet', () => createPet(send, create, false));
    await step('replay create', async () => {
      const id = needs(created, 'create pet');
      const replayed = await createPet(send, create, true);
      if (replayed !== id)
        throw new StepFailure(
          `POST ${BASE_PATH}/pets: expected the replay of pet ${id}, got pet ${replayed}`,
        );
    });
  }
  return results;
}

/** The steps that fail the run: a run with none passes, skipped steps and all. */
export const failedSteps = (results: StepResult[]): StepResult[] =>
  results.filter(({ outcome }) => outcome === 'fail');

/** A step's line, as the canary logs it and `npm run probe` prints it. */
export const stepLine = ({ step, outcome, detail }: StepResult): string =>
  `${OUTCOME_LABELS[outcome]} ${step}${detail === undefined ? '' : `: ${detail}`}`;
