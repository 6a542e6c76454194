// A rollout hook Lambda function (lib/functions/rollout-hooks.ts), one per deployment group: its composition
// root, run once per cold start. Which function it checks, the version being deployed (a qualified
// ARN, which changes with each version the stack publishes), the authorizer's hook key, and the
// Lambda and CodeDeploy clients it invokes and reports with.
import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { createRolloutHookHandler } from '#functions/rollout-hook-handler.ts';
import { rolloutProbes } from '#functions/rollout-checks.ts';
import { isFunctionName } from '#functions/manifests.ts';
import { requireEnv } from '#shared/env.ts';
import { createObservability } from '#shared/observability.ts';

const target = requireEnv('PETSTORE_ROLLOUT_TARGET');
const checked = requireEnv('PETSTORE_ROLLOUT_CHECK');
if (!isFunctionName(checked))
  throw new Error(`PETSTORE_ROLLOUT_CHECK names no function of functions/manifests.ts: "${checked}"`);
const probes = rolloutProbes(checked, { hookKey: process.env.PETSTORE_ROLLOUT_HOOK_KEY });
const lambda = new LambdaClient({});
const codeDeploy = new CodeDeployClient({});
const utf8 = new TextDecoder();

export const handler = createRolloutHookHandler({
  probes,
  async invoke(event) {
    const { FunctionError, Payload } = await lambda.send(
      new InvokeCommand({ FunctionName: target, Payload: JSON.stringify(event) }),
    );
    const text = Payload ? utf8.decode(Payload) : '';
    return { functionError: FunctionError, payload: text === '' ? undefined : (JSON.parse(text) as unknown) };
  },
  report: (event, status) =>
    codeDeploy.send(
      new PutLifecycleEventHookExecutionStatusCommand({
        deploymentId: event.DeploymentId,
        lifecycleEventHookExecutionId: event.LifecycleEventHookExecutionId,
        status,
      }),
    ),
  observability: createObservability({ metrics: false }),
});
