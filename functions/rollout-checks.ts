// What a new version of each function must answer before CodeDeploy lets traffic reach it: the
// requests of its manifest (functions/manifests.ts), or the authorizer's hook key probes, and nothing
// written. A version that fails one is rolled back with no client having seen it, where the alarms
// only notice a bad version after clients got its answers (a 401 for every key raises no alarm).
import { FUNCTION_MANIFESTS } from '#functions/manifests.ts';
import type { FunctionManifest, FunctionName, RolloutRequest } from '#functions/manifests.ts';
import { toProxyEvent } from '#shared/http/proxy-event.ts';

/** What invoking the version gave back: its error, as Lambda reports one, or its result. */
export type Invocation = { functionError?: string | undefined; payload: unknown };
export type Invoke = (event: unknown) => Promise<Invocation>;

export type Probe = {
  what: string;
  event: unknown;
  /** Why the answer is wrong, or undefined when it is right. */
  judge(answer: Invocation): string | undefined;
};

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:000000000000:rollout-check/v1/GET/pets';

/** A REST API proxy event as API Gateway sends it once the authorizer allowed the request. */
const proxyEvent = ({ method, resource, path, query, body }: RolloutRequest) =>
  toProxyEvent({
    method,
    resource,
    path,
    pathParameters: /\{petId\}/.test(resource) ? { petId: path.split('/').at(-1) ?? '' } : undefined,
    query: new URLSearchParams(query).toString(),
    headers: body === undefined ? [] : [['Content-Type', 'application/json']],
    body,
    authorizer: { principalId: 'rollout-check', apiKeyId: 'rollout-check' },
    requestId: `rollout-check-${method}-${resource}`,
  });

function failure({ functionError, payload }: Invocation): string | undefined {
  if (!functionError) return undefined;
  const { errorType, errorMessage } = (payload ?? {}) as { errorType?: string; errorMessage?: string };
  return `the function failed (${functionError}): ${errorType ?? 'Error'}: ${errorMessage ?? ''}`;
}

/** The HTTP answer must have the status and the body the request names. */
function httpAnswer({ answer: { status, body: expectedBody } }: RolloutRequest) {
  const expected = expectedBody === 'an array' ? 'a JSON array' : `a ${expectedBody.code} Error`;
  const bodyIsRight = (body: unknown) =>
    expectedBody === 'an array' ? Array.isArray(body) : isErrorObject(body, expectedBody.code, status);
  return (answer: Invocation) => {
    const failed = failure(answer);
    if (failed) return failed;
    const { statusCode, body } = (answer.payload ?? {}) as { statusCode?: number; body?: string };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body ?? '');
    } catch {
      parsed = undefined;
    }
    if (statusCode === status && bodyIsRight(parsed)) return undefined;
    return `expected ${status} with ${expected}, got ${statusCode ?? 'no status'}: ${String(body).slice(0, 200)}`;
  };
}

function isErrorObject(body: unknown, code: string, status: number) {
  const error = body as { code?: unknown; status?: unknown } | undefined;
  return error?.code === code && error.status === status;
}

/** A TOKEN authorizer event for `Authorization: Bearer <key>`. */
const tokenEvent = (key: string) => ({
  type: 'TOKEN',
  authorizationToken: `Bearer ${key}`,
  methodArn: METHOD_ARN,
});

/** The requests each function's new version must answer rightly; the authorizer's need the hook key. */
export function rolloutProbes(name: FunctionName, { hookKey }: { hookKey?: string }): Probe[] {
  const check: FunctionManifest['rolloutCheck'] = FUNCTION_MANIFESTS[name].rolloutCheck;
  if (check !== 'hookKey') return [{ what: check.what, event: proxyEvent(check), judge: httpAnswer(check) }];
  return hookKeyProbes(hookKey);
}

/** The authorizer's: it allows the hook key, and refuses an unknown key with exactly "Unauthorized". */
function hookKeyProbes(hookKey: string | undefined): Probe[] {
  if (!hookKey) throw new Error('The authorizer check needs the hook key (PETSTORE_ROLLOUT_HOOK_KEY).');
  return [
    {
      what: 'the hook key',
      event: tokenEvent(hookKey),
      judge(answer) {
        const failed = failure(answer);
        if (failed) return `refused the hook key: ${failed}`;
        const { policyDocument } = (answer.payload ?? {}) as {
          policyDocument?: { Statement?: { Effect?: string }[] };
        };
        const effects = policyDocument?.Statement?.map((statement) => statement.Effect) ?? [];
        return effects.length > 0 && effects.every((effect) => effect === 'Allow')
          ? undefined
          : `expected an Allow policy for the hook key, got ${JSON.stringify(answer.payload).slice(0, 200)}`;
      },
    },
    {
      what: 'an unknown key',
      event: tokenEvent(`${hookKey}-unknown`),
      judge: ({ functionError, payload }) =>
        functionError && (payload as { errorMessage?: unknown } | null)?.errorMessage === 'Unauthorized'
          ? undefined
          : `expected exactly "Unauthorized" for an unknown key, got ${JSON.stringify(payload).slice(0, 200)}`,
    },
  ];
}

/** Each probe in turn; what the version got wrong, one line each (none: it may take traffic). */
export async function checkVersion(probes: Probe[], invoke: Invoke): Promise<string[]> {
  const failures: string[] = [];
  for (const probe of probes) {
    const problem = await invoke(probe.event).then(
      probe.judge,
      (error: unknown) => `could not invoke: ${(error as Error).message}`,
    );
    if (problem) failures.push(`${probe.what}: ${problem}`);
  }
  return failures;
}
