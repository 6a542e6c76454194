// How a deployment reaches the functions: CodeDeploy moves each function's `live` alias to the new
// version as the stage's rollout setting says. Before any traffic, the function's hook checks the new
// version (lib/functions/rollout-hooks.ts); while the alias moves, the function's rollout alarms watch.
// A failed check, an alarm, or a failed or stopped deployment moves the alias back.
import { Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { FunctionName } from '#functions/manifests.ts';
import { RolloutHooks } from '#lib/functions/rollout-hooks.ts';
import type { StageSettings } from '#lib/stage-settings.ts';

export type PetstoreRolloutProps = {
  settings: StageSettings;
  /** The table, where the authorizer's hook key is kept. */
  table: ITable;
  /** Each function's `live` alias, by name. */
  aliases: Record<FunctionName, Alias>;
  /** The alarms that roll back the function of this name. */
  rolloutAlarms(functionName: FunctionName): IAlarm[];
};

export class PetstoreRollout extends Construct {
  readonly application: LambdaApplication;
  readonly deploymentGroups: Record<string, LambdaDeploymentGroup> = {};
  readonly hooks: RolloutHooks;

  constructor(scope: Construct, id: string, props: PetstoreRolloutProps) {
    super(scope, id);
    const { settings, table, aliases, rolloutAlarms } = props;
    this.application = new LambdaApplication(this, 'Application');
    this.hooks = new RolloutHooks(this, 'Hooks', { settings, table, aliases });
    // One role for every group (each would make its own): what CodeDeploy may do to the aliases.
    const role = new Role(this, 'ServiceRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited'),
      ],
    });
    for (const [name, alias] of Object.entries(aliases) as [FunctionName, Alias][]) {
      this.deploymentGroups[name] = new LambdaDeploymentGroup(this, name, {
        application: this.application,
        alias,
        role,
        preHook: this.hooks.functions[name],
        deploymentConfig: settings.rollout,
        alarms: rolloutAlarms(name),
        autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
      });
    }
    this.hooks.acknowledgeHookInvocations(role);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "CodeDeploy's service role for Lambda: AWS's managed policy is the documented one, limited to updating aliases and reading the alarms.",
    });
  }
}
