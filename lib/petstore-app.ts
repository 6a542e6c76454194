// The CDK app: both stages and the deploy role's stack, checked by cdk-nag's AWS Solutions rules
// (a violation that is not acknowledged with a reason fails the synthesis).
import { Validations } from 'aws-cdk-lib';
import type { App } from 'aws-cdk-lib';
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
  const stage = (name: StageName) => {
    const env = stageEnvironment(app, name);
    const settings = { ...STAGE_SETTINGS[name], customDomain: customDomain(app, name, env.region) };
    return new PetstoreStage(app, settings, env);
  };
  const stages = { staging: stage('staging'), production: stage('production') };
  const deployAccess = new DeployAccessStack(app, DEPLOY_ACCESS_STACK_ID, {
    stackName: 'petstore-deploy-access',
    stageRegions: { staging: stages.staging.stack.region, production: stages.production.stack.region },
    existingOidcProviderArn: existingOidcProviderArn(app),
    bootstrapQualifier: bootstrapQualifier(app),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { ...stages, deployAccess };
}
