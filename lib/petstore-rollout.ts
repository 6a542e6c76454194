// How a deployment reaches the functions: CodeDeploy moves each function's `live` alias to the
// version the deployment published, as the stage's rollout says (production: 10% of requests for 5
// minutes, then all; staging: all at once). While it moves, the function's rollout alarms watch;
// one that fires stops the rollout and moves the alias back, and so does a failed or stopped
// deployment.
import { Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';

export type PetstoreRolloutProps = {
  settings: StageSettings;
  /** Each function's `live` alias, by name. */
  aliases: Record<string, Alias>;
  /** The alarms that roll back the function of this name. */
  rolloutAlarms(functionName: string): IAlarm[];
};

export class PetstoreRollout extends Construct {
  readonly application: LambdaApplication;
  readonly deploymentGroups: Record<string, LambdaDeploymentGroup> = {};

  constructor(scope: Construct, id: string, { settings, aliases, rolloutAlarms }: PetstoreRolloutProps) {
    super(scope, id);
    this.application = new LambdaApplication(this, 'Application', {
      applicationName: `petstore-${settings.name}`,
    });
    // One role for every group (each would make its own): what CodeDeploy may do to the aliases.
    const role = new Role(this, 'ServiceRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited'),
      ],
    });
    for (const [name, alias] of Object.entries(aliases)) {
      this.deploymentGroups[name] = new LambdaDeploymentGroup(this, name, {
        application: this.application,
        deploymentGroupName: `petstore-${settings.name}-${name}`,
        alias,
        role,
        deploymentConfig: settings.rollout,
        alarms: rolloutAlarms(name),
        autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
      });
    }
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "CodeDeploy's service role for Lambda: AWS's managed policy is the documented one, limited to updating aliases and reading the alarms.",
    });
  }
}
