// The probe canary's handler (functions/probe/canary.ts) with its real Secrets Manager client, against
// a local server of the sources on this file's table. Secrets Manager cannot run here, so mock only AWS
// itself: a local HTTP stand-in answers GetSecretValue, reached by AWS_ENDPOINT_URL_SECRETS_MANAGER.
// And one failure no real API gives on demand: a request that gets no answer before its timeout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { handler as canaryHandler } from '#functions/probe/canary.ts';
import { PROBE_VARIABLES } from '#functions/probe/variables.ts';
import { runProbe } from '#functions/probe/steps.ts';
import { startTestServer } from '#test/support/http.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:petstore-probe-key-AbCdEf';
const WRONG_KEY = 'psk_wrong_key_that_no_table_holds_0123456789';
const STORE_A_KEY = 'run npm run keys -- probe --stage <stage> to store one';

/** What the stand-in answers the next GetSecretValue with, and what each one asked for. */
let secretAnswer: { status: number; body: object } = { status: 200, body: {} };
const asked: { target: string | undefined; secretId: unknown }[] = [];
const secretsManager = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const target = request.headers['x-amz-target'];
    asked.push({ target: Array.isArray(target) ? target[0] : target, secretId: JSON.parse(body).SecretId });
    response.writeHead(secretAnswer.status, { 'Content-Type': 'application/x-amz-json-1.1' });
    response.end(JSON.stringify(secretAnswer.body));
  });
});
const holding = (apiKey: string) => ({
  status: 200,
  body: { ARN: SECRET_ARN, SecretString: JSON.stringify({ keyId: 'k1', apiKey }) },
});

let api: Awaited<ReturnType<typeof startTestServer>>;
let handler: typeof canaryHandler;

/** Pets for the probe to page through: it reads one at a time, so a next page needs two. */
async function addPets(...names: string[]) {
  for (const name of names)
    await fetch(`${api.url}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
}

beforeAll(async () => {
  await new Promise<void>((resolve) => secretsManager.listen(0, '127.0.0.1', resolve));
  // The file's table starts empty, as a new stage does.
  api = await startTestServer();
  // The canary reads its settings on load.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secretsManager.address() as AddressInfo).port}`,
    // As the stack gives it: API Gateway's URL of the stage ends in a slash.
    [PROBE_VARIABLES.baseUrl]: `${api.url}/v1/`,
    [PROBE_VARIABLES.keySecretArn]: SECRET_ARN,
    [PROBE_VARIABLES.creates]: 'true',
  });
  ({ handler } = await import('#functions/probe/canary.ts'));
});

afterAll(async () => {
  await api.close();
  await new Promise((resolve) => secretsManager.close(resolve));
});

/** The handler's run: its outcome and what it logged, one string per console.log. */
async function run() {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const outcome = await handler().then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    return { outcome, logged: log.mock.calls.map((args) => args.join(' ')) };
  } finally {
    log.mockRestore();
  }
}

describe('the probe canary', () => {
  // First: its run creates a pet, and the store is empty only until then.
  it('passes an empty store, logging the next page it skipped', async () => {
    secretAnswer = holding(api.apiKey);
    expect(await run()).toEqual({
      outcome: 'resolved',
      logged: [
        'ok   list pets',
        'skip next page: the store holds fewer than 2 pets (GET /v1/pets?limit=2 gave an array of 0), so there is no next page',
        'ok   status filter',
        'ok   get pet',
        'ok   create pet',
        'ok   replay create',
      ],
    });
  });

  it('passes every step of a healthy API with the key of the secret, and logs no key', async () => {
    await addPets('Rex', 'Tom');
    secretAnswer = holding(api.apiKey);
    const { outcome, logged } = await run();
    expect({ outcome, logged }).toEqual({
      outcome: 'resolved',
      logged: [
        'ok   list pets',
        'ok   next page',
        'ok   status filter',
        'ok   get pet',
        'ok   create pet',
        'ok   replay create',
      ],
    });
    expect(asked.at(-1)).toEqual({ target: 'secretsmanager.GetSecretValue', secretId: SECRET_ARN });
  });

  it("fails the run with the failed steps' lines when the API refuses the key, and shows no key", async () => {
    secretAnswer = holding(WRONG_KEY);
    const { outcome, logged } = await run();
    const lines = [
      'FAIL list pets: GET /v1/pets?limit=1: expected 200 with an array of at most 1 pet, got 401 unauthorized',
      'skip next page: needs list pets',
      'FAIL status filter: GET /v1/pets?status=available&limit=1: expected 200 with an array of available pets, got 401 unauthorized',
      'skip get pet: needs list pets',
      'FAIL create pet: POST /v1/pets: expected 201 with the pet "probe <time>", got 401 unauthorized',
      'skip replay create: needs create pet',
    ];
    const timeless = (line: string) => line.replace(/"probe [^"]+"/, '"probe <time>"');
    expect({ outcome: timeless(outcome), logged: logged.map(timeless) }).toEqual({
      outcome: lines.filter((line) => line.startsWith('FAIL')).join('\n'),
      logged: lines,
    });
    expect(`${outcome}\n${logged.join('\n')}`).not.toContain(WRONG_KEY);
  });

  it('fails in one line saying how to store a key when the secret is missing or holds no key', async () => {
    secretAnswer = {
      status: 400,
      body: {
        __type: 'ResourceNotFoundException',
        message: "Secrets Manager can't find the specified secret.",
      },
    };
    expect(await run()).toEqual({
      outcome: `the probe's key: cannot read ${SECRET_ARN} (ResourceNotFoundException): ${STORE_A_KEY}`,
      logged: [],
    });
    // The stack's placeholder: a generated password, before `npm run keys -- probe` replaces it.
    secretAnswer = { status: 200, body: { ARN: SECRET_ARN, SecretString: 'x7#Jq!generated-password' } };
    expect(await run()).toEqual({
      outcome: `the probe's key: ${SECRET_ARN} holds no {"keyId","apiKey"} JSON: ${STORE_A_KEY}`,
      logged: [],
    });
  });
});

describe("the probe's steps", () => {
  it('fail a request that gets no answer within its timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      const results = await runProbe({ baseUrl, apiKey: 'k_silent', creates: false, timeoutMs: 200 });
      expect(results).toEqual([
        { step: 'list pets', outcome: 'fail', detail: 'GET /v1/pets?limit=1: timed out after 200 ms' },
        { step: 'next page', outcome: 'skip', detail: 'needs list pets' },
        {
          step: 'status filter',
          outcome: 'fail',
          detail: 'GET /v1/pets?status=available&limit=1: timed out after 200 ms',
        },
        { step: 'get pet', outcome: 'skip', detail: 'needs list pets' },
      ]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuse a base URL that does not end in /v1', async () => {
    await expect(runProbe({ baseUrl: 'http://127.0.0.1:1/v2', apiKey: 'k', creates: false })).rejects.toThrow(
      "The probe's base URL must end in /v1: http://127.0.0.1:1/v2",
    );
  });
});
