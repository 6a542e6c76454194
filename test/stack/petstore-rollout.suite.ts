// How each stage rolls out its functions (lib/petstore-function.ts, lib/petstore-rollout.ts): every
// function is published as a version behind the alias `live`, which API Gateway invokes (with its
// permission) and CodeDeploy moves: production by a 10% canary for 5 minutes, staging all at once,
// both stopped and rolled back when the function's rollout alarms fire.
import { describe, expect, test } from '@jest/globals';
import { synthesized } from './synthesize.ts';
import type { Properties, SynthesizedStage } from './synthesize.ts';
import { FUNCTION_IDS, ROUTE_FUNCTION_IDS, liveAliasOf, ref, referencedId } from './templates.ts';

const EXPECTED_CONFIG = {
  staging: 'CodeDeployDefault.LambdaAllAtOnce',
  production: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
};

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name } = stage;
  const alarmName = (logicalId: string) => String(stage.resource(logicalId).Properties.AlarmName);

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
    const alias = stage.resource(liveAliasOf(stage, functionId));
    const update = (alias.UpdatePolicy as { CodeDeployLambdaAliasUpdate: Properties })
      .CodeDeployLambdaAliasUpdate;
    const [applicationId, application] = stage.only('AWS::CodeDeploy::Application');
    expect(application.Properties).toMatchObject({
      ApplicationName: `petstore-${name}`,
      ComputePlatform: 'Lambda',
    });
    expect(update.ApplicationName).toEqual(ref(applicationId));
    const group = stage.resource(referencedId(update.DeploymentGroupName)).Properties;
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
    // The API's 5xx and p99 latency judge every function; a route function's own errors judge it too.
    const operationId = Object.entries(ROUTE_FUNCTION_IDS).find(([, id]) => id === functionId)?.[0];
    const expected = ['Api5xx', 'ApiP99Latency', ...(operationId ? [`${operationId}Errors`] : [])];
    expect(Alarms.map(({ Name }) => alarmName(referencedId(Name))).sort()).toEqual(
      expected.map((id) => `petstore-${name}-${id}`).sort(),
    );
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
