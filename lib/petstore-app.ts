// The CDK app: both stages and the deploy roles' stack (one per account), checked by cdk-nag's AWS
// Solutions rules (a violation that is not acknowledged with a reason fails the synthesis).
import { Validations } from 'aws-cdk-lib';
import type { App, Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import {
  bootstrapQualifier,
  customDomain,
  existingOidcProviderArn,
  stageEnvironment,
} from '#lib/app-context.ts';
import { DeployAccessStack } from '#lib/deploy-access-stack.ts';
import { PetstoreStage } from '#lib/petstore-stage.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName } from '#lib/stage-settings.ts';

/** `cdk deploy PetstoreDeployAccess`: the stack's id, which selects it. */
const DEPLOY_ACCESS_STACK_ID = 'PetstoreDeployAccess';

export function addPetstoreStages(app: App) {
  const envs = { staging: stageEnvironment(app, 'staging'), production: stageEnvironment(app, 'production') };
  const qualifier = bootstrapQualifier(app);
  const stage = (name: StageName) => {
    const settings = { ...STAGE_SETTINGS[name], customDomain: customDomain(app, name, envs[name].region) };
    return new PetstoreStage(app, { settings, env: envs[name], bootstrapQualifier: qualifier });
  };
  const stages = { staging: stage('staging'), production: stage('production') };
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { ...stages, deployAccess: addDeployAccess(app, envs, qualifier) };
}

/**
 * The deploy roles: one stack in the stages' account, in production's region; or, when the stages
 * name two accounts, one stack in each (`PetstoreDeployAccessStaging`, ...) holding only that stage's
 * role, so that no role in production's account trusts staging's environment.
 */
function addDeployAccess(
  app: App,
  envs: Record<StageName, Environment>,
  bootstrapQualifier: string,
): DeployAccessStack[] {
  const common = { existingOidcProviderArn: existingOidcProviderArn(app), bootstrapQualifier };
  const regionOf = (stage: StageName) => envs[stage].region ?? '';
  if (envs.staging.account === envs.production.account)
    return [
      new DeployAccessStack(app, DEPLOY_ACCESS_STACK_ID, {
        ...common,
        env: envs.production,
        stackName: 'petstore-deploy-access',
        stageRegions: { staging: regionOf('staging'), production: regionOf('production') },
      }),
    ];
  return (['staging', 'production'] as const).map(
    (stage) =>
      new DeployAccessStack(app, `${DEPLOY_ACCESS_STACK_ID}${STAGE_SETTINGS[stage].id}`, {
        ...common,
        env: envs[stage],
        stackName: `petstore-deploy-access-${stage}`,
        stageRegions: { [stage]: regionOf(stage) },
      }),
  );
}
