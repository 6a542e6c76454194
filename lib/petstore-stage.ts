// A deployable stage (staging or production): one stack, `petstore-<stage>`, in the stage's
// account and region. As a CDK Stage it synthesizes into cdk.out/assembly-<Stage>/. It deploys
// through the project's own CDK toolkit, and every role in it carries the permissions boundary.
import { DefaultStackSynthesizer, Stage, Tags } from 'aws-cdk-lib';
import type { Environment } from 'aws-cdk-lib';
import { ManagedPolicy, PermissionsBoundary } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { PERMISSIONS_BOUNDARY_NAME } from '#lib/deploy-policies.ts';
import { PetstoreStack } from '#lib/petstore-stack.ts';
import type { StageSettings } from '#lib/stage-settings.ts';

export type PetstoreStageProps = { settings: StageSettings; env: Environment; bootstrapQualifier: string };

export class PetstoreStage extends Stage {
  readonly stack: PetstoreStack;

  constructor(scope: Construct, { settings, env, bootstrapQualifier }: PetstoreStageProps) {
    super(scope, settings.id, { env });
    this.stack = new PetstoreStack(this, 'Petstore', {
      settings,
      stackName: `petstore-${settings.name}`,
      synthesizer: new DefaultStackSynthesizer({ qualifier: bootstrapQualifier }),
    });
    // CDK's own custom-resource roles included: the aspect sets it on every AWS::IAM::Role.
    PermissionsBoundary.of(this).apply(
      ManagedPolicy.fromManagedPolicyName(this.stack, 'PermissionsBoundary', PERMISSIONS_BOUNDARY_NAME),
    );
    // Not the dashboard: CloudFormation takes its tags since 2026, and cfn-lint 1.51.0 still refuses them.
    // Not the key: tagging one at creation needs kms:TagResource on any key, which the deploy lacks.
    const tagged = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard', 'AWS::KMS::Key'] };
    Tags.of(this).add('project', 'petstore', tagged);
    Tags.of(this).add('stage', settings.name, tagged);
  }
}
