// The rollout hooks (functions/rollout-hook*.ts, functions/rollout-checks.ts): what each new version
// must answer before CodeDeploy lets traffic reach it, judged on the real handlers over this file's
// table, and the hook's composition root with the real AWS SDK clients. Lambda's Invoke and CodeDeploy
// cannot run here: a local HTTP stand-in runs the given handler per Invoke and records each status.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAuthorizerHandler } from '#functions/authorizer.ts';
import { checkVersion, rolloutProbes } from '#functions/rollout-checks.ts';
import { FUNCTION_NAMES, isFunctionName } from '#functions/manifests.ts';
import type { Invoke } from '#functions/rollout-checks.ts';
import type { createRolloutHookHandler } from '#functions/rollout-hook-handler.ts';
import { ROLLOUT_HOOK_KEY, ROLLOUT_HOOK_KEY_ITEM } from '#lib/functions/rollout-hooks.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { createDynamoDbPetStore } from '#shared/store/dynamodb-pet-store.ts';
import { catchStdout } from '#test/support/stdout.ts';
import { quietObservability, testFunctions, testTable } from '#test/support/test-table.ts';

type Handler = (event: never, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;

/** A handler invoked as Lambda reports it: its result, or its error as an Unhandled function error. */
async function invokeAsLambda(handler: Handler, event: unknown) {
  try {
    return { payload: await handler(event as never, lambdaContext()) };
  } catch (error) {
    const { name, message } = error as Error;
    return { functionError: 'Unhandled', payload: { errorType: name, errorMessage: message } };
  }
}
const invoking =
  (handler: Handler): Invoke =>
  (event) =>
    invokeAsLambda(handler, event);

const check = (name: Parameters<typeof rolloutProbes>[0], handler: Handler) =>
  checkVersion(rolloutProbes(name, { hookKey: ROLLOUT_HOOK_KEY }), invoking(handler));

/** An authorizer version that allows any key at all. */
const allowsAnyKey: Handler = async () => ({
  principalId: 'anyone',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: 'execute-api:Invoke', Resource: '*' }],
  },
});

describe('the checks of a new version', () => {
  it('fail an authorizer that refuses the hook key (no key in its table), and pass it once the stack keeps the key', async () => {
    const refusing = await check('authorizer', testFunctions.authorizer);
    expect(refusing).toEqual([
      'the hook key: refused the hook key: the function failed (Unhandled): Error: Unauthorized',
    ]);
    await testTable.putIfAbsent(ROLLOUT_HOOK_KEY_ITEM);
    expect(await check('authorizer', testFunctions.authorizer)).toEqual([]);
    // The item is the one `npm run keys` would store: the key store finds it active.
    expect(await createApiKeyStore(testTable).findActive(ROLLOUT_HOOK_KEY)).toMatchObject({
      id: ROLLOUT_HOOK_KEY_ITEM.id,
    });
  });

  it('fail an authorizer that allows an unknown key', async () => {
    expect(await check('authorizer', allowsAnyKey)).toEqual([
      expect.stringMatching(/^an unknown key: expected exactly "Unauthorized" for an unknown key, got /),
    ]);
  });

  it('pass the real listPets, getPet and createPet, and createPet creates nothing', async () => {
    const pets = createDynamoDbPetStore(testTable);
    const before = await pets.list({ limit: 100 });
    expect(await check('listPets', testFunctions.listPets)).toEqual([]);
    expect(await check('getPet', testFunctions.getPet)).toEqual([]);
    expect(await check('createPet', testFunctions.createPet)).toEqual([]);
    expect(await pets.list({ limit: 100 })).toEqual(before);
  });

  it('fail a version with the wrong answer, a crash, or one that cannot be invoked', async () => {
    // getPet answering 200 for a pet that cannot exist; listPets crashing.
    expect(await check('getPet', testFunctions.listPets)).toEqual([
      expect.stringMatching(
        /^GET \/pets\/9007199254740991: expected 404 with a not_found Error, got 200: \[/,
      ),
    ]);
    const crashing: Handler = async () => {
      throw new TypeError('x is undefined');
    };
    expect(await check('listPets', crashing)).toEqual([
      'GET /pets?limit=1: the function failed (Unhandled): TypeError: x is undefined',
    ]);
    const unreachable = await checkVersion(rolloutProbes('createPet', {}), async () => {
      throw new Error('AccessDeniedException: not authorized to perform lambda:InvokeFunction');
    });
    expect(unreachable).toEqual([
      'POST /pets with an empty name: could not invoke: AccessDeniedException: not authorized to perform lambda:InvokeFunction',
    ]);
  });

  it('refuse to build the authorizer check without the hook key', () => {
    expect(() => rolloutProbes('authorizer', {})).toThrow(/needs the hook key/);
  });

  it("exist for every function of the manifests, and for nothing else the hook's setting may name", () => {
    expect(FUNCTION_NAMES.every(isFunctionName)).toBe(true);
    expect(['toString', 'constructor', 'nosuch', ''].filter(isFunctionName)).toEqual([]);
  });
});

describe("the hook's composition root, with the real SDK clients", () => {
  const TARGET = 'arn:aws:lambda:us-east-1:123456789012:function:AuthorizerFunction:7';
  const invoked: string[] = [];
  const reported: unknown[] = [];
  let target: Handler = testFunctions.authorizer;
  const standIn = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      void (async () => {
        if (request.headers['x-amz-target'] === 'CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus') {
          const status = JSON.parse(body) as { lifecycleEventHookExecutionId: string };
          reported.push(status);
          response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' });
          response.end(
            JSON.stringify({ lifecycleEventHookExecutionId: status.lifecycleEventHookExecutionId }),
          );
          return;
        }
        const [, functionName = ''] =
          /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(request.url ?? '') ?? [];
        invoked.push(decodeURIComponent(functionName));
        const { functionError, payload } = await invokeAsLambda(target, JSON.parse(body));
        response.writeHead(200, {
          'Content-Type': 'application/json',
          ...(functionError && { 'X-Amz-Function-Error': functionError }),
        });
        response.end(JSON.stringify(payload));
      })();
    });
  });
  let handler: ReturnType<typeof createRolloutHookHandler>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_LAMBDA: endpoint,
      AWS_ENDPOINT_URL_CODEDEPLOY: endpoint,
      PETSTORE_ROLLOUT_CHECK: 'authorizer',
      PETSTORE_ROLLOUT_TARGET: TARGET,
      PETSTORE_ROLLOUT_HOOK_KEY: ROLLOUT_HOOK_KEY,
    });
    ({ handler } = await import('#functions/rollout-hook.ts'));
  });
  afterAll(() => new Promise((resolve) => standIn.close(resolve)));

  const deployment = (id: string) => ({ DeploymentId: id, LifecycleEventHookExecutionId: `hook-${id}` });

  it('invokes the version being deployed and reports Succeeded for the real authorizer', async () => {
    await testTable.putIfAbsent(ROLLOUT_HOOK_KEY_ITEM);
    expect(await handler(deployment('d-GOOD'))).toEqual({ status: 'Succeeded', failures: [] });
    expect(invoked).toEqual([TARGET, TARGET]);
    expect(reported).toEqual([
      { deploymentId: 'd-GOOD', lifecycleEventHookExecutionId: 'hook-d-GOOD', status: 'Succeeded' },
    ]);
  });

  it('reports Failed for a version that refuses the hook key', async () => {
    const emptyStore = { ...createApiKeyStore(testTable), findActive: async () => undefined };
    target = createAuthorizerHandler({ apiKeys: emptyStore, observability: quietObservability() });
    const { result, lines } = await catchStdout(() => handler(deployment('d-BAD')));
    expect(result.status).toBe('Failed');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'The new version failed its rollout check',
        deploymentId: 'd-BAD',
      }),
    ]);
    expect(reported.at(-1)).toEqual({
      deploymentId: 'd-BAD',
      lifecycleEventHookExecutionId: 'hook-d-BAD',
      status: 'Failed',
    });
  });
});
