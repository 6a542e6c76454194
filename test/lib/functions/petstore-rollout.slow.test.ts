// How each stage rolls out its functions (lib/functions/): every function is published as a version
// behind the alias `live`, which API Gateway invokes and CodeDeploy moves (production by a 10% canary
// for 5 minutes, staging all at once), each first checked by its BeforeAllowTraffic hook, and stopped
// and rolled back when the hook fails or the function's rollout alarms fire.
import { describe, expect, test } from '@jest/globals';
import { ROLLOUT_HOOK_KEY } from '#lib/functions/rollout-hooks.ts';
import { hashApiKey } from '#shared/store/api-key-store.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import {
  FUNCTION_IDS,
  FUNCTION_ID_OF,
  ROUTE_FUNCTION_IDS,
  environmentOf,
  liveAliasOf,
  ref,
  referencedId,
  roleStatements,
} from '#test/lib/templates.ts';

/** The function name each function's hook checks: its operationId, or authorizer. */
const CHECKED_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(FUNCTION_ID_OF).map(([name, id]) => [id, name]),
);

const EXPECTED_CONFIG = {
  staging: 'CodeDeployDefault.LambdaAllAtOnce',
  production: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
};

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name } = stage;
  /** The construct id of an alarm (Alarms<id><hash>): CloudFormation names the alarms. */
  const alarmId = (logicalId: string) => logicalId.replace(/^Alarms(\w+)[0-9A-F]{8}$/, '$1');
  const updatePolicyOf = (functionId: string) =>
    (
      stage.resource(liveAliasOf(stage, functionId)).UpdatePolicy as {
        CodeDeployLambdaAliasUpdate: Properties;
      }
    ).CodeDeployLambdaAliasUpdate;

  test.each(FUNCTION_IDS)(
    '%s: one version, behind the alias live, which API Gateway may invoke',
    (functionId) => {
      const versions = stage
        .all('AWS::Lambda::Version')
        .filter(([, version]) => referencedId(version.Properties.FunctionName) === functionId);
      expect(versions).toHaveLength(1);
      const aliasId = liveAliasOf(stage, functionId);
      const permissions = stage
        .all('AWS::Lambda::Permission')
        .filter(([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com');
      const targets = permissions.map(([, permission]) => referencedId(permission.Properties.FunctionName));
      expect(targets).toContain(aliasId);
      // Never the unqualified function: that would be $LATEST, past any rollout.
      expect(targets).not.toContain(functionId);
    },
  );

  test.each(FUNCTION_IDS)(`%s: its alias rolls out through CodeDeploy, as ${name} should`, (functionId) => {
    const update = updatePolicyOf(functionId);
    const [applicationId, application] = stage.only('AWS::CodeDeploy::Application');
    // CloudFormation names the application and the groups: the stack's outputs say which.
    expect(application.Properties).toEqual({ ComputePlatform: 'Lambda', Tags: expect.any(Array) });
    expect(update.ApplicationName).toEqual(ref(applicationId));
    const group = stage.resource(referencedId(update.DeploymentGroupName)).Properties;
    expect(group.DeploymentGroupName).toBeUndefined();
    // So the group's output names it, which aws deploy list-deployments needs with the application.
    const outputs = stage.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs[functionId.replace(/Function$/, 'DeploymentGroup')]?.Value).toEqual(
      update.DeploymentGroupName,
    );
    expect(group).toMatchObject({
      ApplicationName: ref(applicationId),
      DeploymentConfigName: EXPECTED_CONFIG[name],
      DeploymentStyle: { DeploymentOption: 'WITH_TRAFFIC_CONTROL', DeploymentType: 'BLUE_GREEN' },
      AutoRollbackConfiguration: {
        Enabled: true,
        Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
      },
    });
    const { Enabled, Alarms } = group.AlarmConfiguration as { Enabled: boolean; Alarms: { Name: unknown }[] };
    expect(Enabled).toBe(true);
    // Only what this function's release can break judges it: never another function's alarms, nor
    // the whole API's, so a fix shipped during another function's incident is not rolled back.
    const operationId = Object.entries(ROUTE_FUNCTION_IDS).find(([, id]) => id === functionId)?.[0];
    const expected = operationId
      ? ['Errors', 'Throttles', '5xx', 'P99Latency'].map((kind) => `${operationId}${kind}`)
      : ['authorizerThrottles', 'authorizerFailures'];
    expect(Alarms.map(({ Name }) => alarmId(referencedId(Name))).sort()).toEqual(expected.sort());
  });

  test.each(FUNCTION_IDS)(
    '%s: its BeforeAllowTraffic hook checks the version being deployed, and may do nothing else',
    (functionId) => {
      const update = updatePolicyOf(functionId);
      const hookId = referencedId(update.BeforeAllowTrafficHook);
      expect(stage.resource(hookId).Type).toBe('AWS::Lambda::Function');
      const version = stage.resource(liveAliasOf(stage, functionId)).Properties.FunctionVersion as {
        'Fn::GetAtt': [string, string];
      };
      const versionId = version['Fn::GetAtt'][0];
      const authorizer = functionId === 'AuthorizerFunction';
      expect(environmentOf(stage, hookId)).toEqual({
        PETSTORE_ROLLOUT_CHECK: CHECKED_NAMES[functionId],
        // The qualified ARN of the version the alias is moved to: a new one with every change.
        PETSTORE_ROLLOUT_TARGET: ref(versionId),
        ...(authorizer && { PETSTORE_ROLLOUT_HOOK_KEY: ROLLOUT_HOOK_KEY }),
      });
      const groupId = referencedId(update.DeploymentGroupName);
      const statements = roleStatements(stage, hookId) as { Action: unknown; Resource: unknown }[];
      const granted = statements.filter(({ Action }) => !/^(logs|xray):/.test([Action].flat().join()));
      expect(granted).toEqual([
        expect.objectContaining({
          Action: 'codedeploy:PutLifecycleEventHookExecutionStatus',
          Resource: expect.objectContaining({ 'Fn::Join': expect.anything() }),
        }),
        expect.objectContaining({ Action: 'lambda:InvokeFunction', Resource: ref(versionId) }),
      ]);
      // The report is allowed for this deployment group only.
      const reportResource = JSON.stringify(granted[0]?.Resource);
      expect(reportResource).toContain(JSON.stringify(ref(groupId)));
      // CodeDeploy's role may invoke the hook.
      const invokers = stage
        .all('AWS::IAM::Policy')
        .filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes(`"${hookId}"`));
      expect(invokers.length).toBeGreaterThan(0);
    },
  );

  test("the authorizer's hook key is kept in the table, as an API key item the stack writes", () => {
    const [, keyWriter] = stage.only('Custom::AWS');
    const [tableId] = stage.only('AWS::DynamoDB::Table');
    const create = JSON.stringify(keyWriter.Properties.Create);
    expect(create).toContain('putItem');
    expect(create).toContain(JSON.stringify(ref(tableId)));
    // The hash, never the key, is what the table holds (as for every key).
    expect(create).toContain(hashApiKey(ROLLOUT_HOOK_KEY));
    expect(create).not.toContain(ROLLOUT_HOOK_KEY);
    expect(JSON.stringify(keyWriter.Properties.Delete)).toContain('deleteItem');
    const authorizerHook = referencedId(updatePolicyOf('AuthorizerFunction').BeforeAllowTrafficHook);
    const [keyWriterId] = stage.only('Custom::AWS');
    expect([stage.resource(authorizerHook).DependsOn].flat()).toContain(keyWriterId);
  });

  test('one CodeDeploy role for the four deployment groups, limited to what Lambda rollouts need', () => {
    const groups = stage.all('AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(FUNCTION_IDS.length);
    const roles = new Set(groups.map(([, group]) => JSON.stringify(group.Properties.ServiceRoleArn)));
    expect(roles.size).toBe(1);
    const [roleArn] = groups.map(([, group]) => group.Properties.ServiceRoleArn);
    expect(stage.resource(referencedId(roleArn)).Properties).toMatchObject({
      AssumeRolePolicyDocument: {
        Statement: [expect.objectContaining({ Principal: { Service: 'codedeploy.amazonaws.com' } })],
      },
      ManagedPolicyArns: [
        {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited',
            ],
          ],
        },
      ],
    });
  });
});
