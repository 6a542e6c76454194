// The CDK app: both stages, checked by cdk-nag's AWS Solutions rules (a violation that is not
// acknowledged with a reason fails the synthesis).
import { Validations } from 'aws-cdk-lib';
import type { App, Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PetstoreStage } from '#lib/petstore-stage.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName } from '#lib/stage-settings.ts';

/**
 * Account and region: context `<stage>:account` and `<stage>:region`, else the CLI's defaults
 * (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION), else none: an environment-agnostic stack, which is
 * what lets `cdk synth` run offline.
 */
function stageEnvironment(app: App, stage: StageName): Environment {
  return {
    account: app.node.tryGetContext(`${stage}:account`) ?? process.env.CDK_DEFAULT_ACCOUNT,
    region: app.node.tryGetContext(`${stage}:region`) ?? process.env.CDK_DEFAULT_REGION,
  };
}

export function addPetstoreStages(app: App): Record<StageName, PetstoreStage> {
  const stage = (name: StageName) =>
    new PetstoreStage(app, STAGE_SETTINGS[name], stageEnvironment(app, name));
  const stages = { staging: stage('staging'), production: stage('production') };
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stages;
}
