// A deployable stage (staging or production): one stack, `petstore-<stage>`, in the stage's
// account and region. As a CDK Stage it synthesizes into cdk.out/assembly-<Stage>/.
import { Stage, Tags } from 'aws-cdk-lib';
import type { Environment } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { PetstoreStack } from '#lib/petstore-stack.ts';
import type { StageSettings } from '#lib/stage-settings.ts';

export class PetstoreStage extends Stage {
  readonly stack: PetstoreStack;

  constructor(scope: Construct, settings: StageSettings, env: Environment) {
    super(scope, settings.id, { env });
    this.stack = new PetstoreStack(this, 'Petstore', { settings, stackName: `petstore-${settings.name}` });
    // Not the dashboard: CloudFormation takes its tags since 2026, and cfn-lint 1.51.0 still refuses them.
    const tagged = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
    Tags.of(this).add('project', 'petstore', tagged);
    Tags.of(this).add('stage', settings.name, tagged);
  }
}
