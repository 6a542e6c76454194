// CodeDeploy's BeforeAllowTraffic hook of one function's deployment group: it checks the version
// being deployed (functions/rollout-checks.ts), then reports Succeeded or Failed to CodeDeploy,
// which moves the alias to that version, or stops and rolls the deployment back. A check that
// cannot run is a failure too: no version takes traffic unchecked.
import type { Invoke, Probe } from '#functions/rollout-checks.ts';
import { checkVersion } from '#functions/rollout-checks.ts';
import type { Observability } from '#shared/observability.ts';

/** What CodeDeploy sends a lifecycle hook. */
export type LifecycleHookEvent = { DeploymentId: string; LifecycleEventHookExecutionId: string };
export type HookStatus = 'Succeeded' | 'Failed';

export type RolloutHookDependencies = {
  probes: Probe[];
  invoke: Invoke;
  report(event: LifecycleHookEvent, status: HookStatus): Promise<unknown>;
  observability: Observability;
};

export function createRolloutHookHandler({ probes, invoke, report, observability }: RolloutHookDependencies) {
  return async function beforeAllowTraffic(event: LifecycleHookEvent) {
    const failures = await checkVersion(probes, invoke);
    const status: HookStatus = failures.length === 0 ? 'Succeeded' : 'Failed';
    if (status === 'Failed')
      observability.logger.error('The new version failed its rollout check', {
        deploymentId: event.DeploymentId,
        failures,
      });
    await report(event, status);
    return { status, failures };
  };
}
