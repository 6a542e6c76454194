// The deploy roles' stack (lib/deploy-access-stack.ts): GitHub's OIDC provider and one role per stage
// that only that stage's GitHub environment of this repository may assume, through that provider,
// and that may do nothing but assume the CDK bootstrap roles of the stage's region. The stack is bound
// to a stage's region from cdk.json, so `cdk deploy PetstoreDeployAccess` never acts in the profile's.
import { describe, expect, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { appWithFlags } from '#test/lib/app-with-flags.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties } from '#test/lib/synthesize.ts';
import { sortStatements } from '#test/lib/templates.ts';

const { template } = synthesized.deployAccess;
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Properties }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
/** `repo:${GitHubRepository}:...` as CloudFormation builds it from the parameter. */
const subject = (rest: string) => ({ 'Fn::Join': ['', ['repo:', { Ref: 'GitHubRepository' }, rest]] });
const STAGES = [
  ['staging', 'StagingRole'],
  ['production', 'ProductionRole'],
] as const;
const regionOf = {
  staging: synthesized.staging.region,
  production: synthesized.production.region,
};

/** The role whose logical id starts with this construct id. */
function roleOf(constructId: string): [string, { Properties: Properties }] {
  const found = ofType('AWS::IAM::Role').filter(([logicalId]) => logicalId.startsWith(constructId));
  expect(found).toHaveLength(1);
  return found[0] as [string, { Properties: Properties }];
}

describe('the deploy roles stack', () => {
  const [[providerId, provider] = []] = ofType('AWS::IAM::OIDCProvider');

  test("GitHub's OIDC provider, for STS", () => {
    expect(provider?.Properties).toMatchObject({
      Url: 'https://token.actions.githubusercontent.com',
      ClientIdList: ['sts.amazonaws.com'],
    });
  });

  test('the repository is a parameter that only takes owner/name', () => {
    const { AllowedPattern } = template.toJSON().Parameters.GitHubRepository as { AllowedPattern: string };
    const pattern = new RegExp(AllowedPattern);
    expect(pattern.test('octo-org/petstore-api')).toBe(true);
    for (const bad of ['petstore-api', 'octo-org/*', 'octo-org/petstore:ref:refs/heads/x', '*']) {
      expect(pattern.test(bad)).toBe(false);
    }
  });

  test('one role per stage, and no other', () => {
    expect(ofType('AWS::IAM::Role')).toHaveLength(STAGES.length);
  });

  test('no trust statement without an environment: subject', () => {
    for (const [, role] of ofType('AWS::IAM::Role')) {
      const { Statement } = role.Properties.AssumeRolePolicyDocument as { Statement: Properties[] };
      for (const statement of Statement) {
        const subjects = [
          (statement.Condition as Record<string, Record<string, unknown>>).StringEquals?.[
            'token.actions.githubusercontent.com:sub'
          ],
        ].flat();
        expect(subjects.length).toBeGreaterThan(0);
        for (const value of subjects) expect(JSON.stringify(value)).toContain(':environment:');
      }
    }
  });

  test.each(STAGES)(
    "%s: trusted only through that provider, for this repository's %s environment",
    (environment, constructId) => {
      const [, role] = roleOf(constructId);
      expect(role.Properties.AssumeRolePolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'sts:AssumeRoleWithWebIdentity',
            // An OIDC provider's Ref is its ARN.
            Principal: { Federated: { Ref: providerId } },
            Condition: {
              StringEquals: {
                'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
                'token.actions.githubusercontent.com:sub': subject(`:environment:${environment}`),
              },
            },
          },
        ],
      });
      expect(role.Properties).toMatchObject({ MaxSessionDuration: 3600 });
      // CloudFormation names it; the workflow reads its ARN from the stage's output.
      expect(role.Properties.RoleName).toBeUndefined();
      expect(role.Properties).not.toHaveProperty('ManagedPolicyArns');
    },
  );

  test.each(STAGES)(
    "%s: it may only assume the CDK bootstrap roles of its account, in the stage's region",
    (stage, constructId) => {
      const [roleId] = roleOf(constructId);
      const policies = ofType('AWS::IAM::Policy').filter(([, policy]) =>
        JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`),
      );
      expect(policies).toHaveLength(1);
      const statements = (policies[0]?.[1].Properties.PolicyDocument as { Statement: unknown[] }).Statement;
      expect(sortStatements(statements)).toEqual([
        {
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: {
            'Fn::Join': [
              '',
              [
                // The stack is bound to a region, so its partition is known.
                'arn:aws:iam::',
                { Ref: 'AWS::AccountId' },
                ':role/cdk-petstore-*-',
                { Ref: 'AWS::AccountId' },
                `-${regionOf[stage]}`,
              ],
            ],
          },
          Condition: {
            StringEquals: {
              'iam:ResourceTag/aws-cdk:bootstrap-role': [
                'deploy',
                'file-publishing',
                'image-publishing',
                'lookup',
              ],
            },
          },
        },
      ]);
    },
  );

  test.each(STAGES)(
    "%s: its ARN is an output, the environment's AWS_DEPLOY_ROLE_ARN",
    (_stage, constructId) => {
      const [roleId] = roleOf(constructId);
      template.hasOutput(`${constructId.replace('Role', '')}DeployRoleArn`, {
        Value: Match.objectLike({ 'Fn::GetAtt': [roleId, 'Arn'] }),
      });
    },
  );
});

describe("the deploy roles stack's region", () => {
  // Two regions apart, so that a stack bound to the other stage's region, or to none, shows.
  const regions = { 'staging:region': 'eu-west-3', 'production:region': 'eu-north-1' };
  const deployAccessOf = (context: Record<string, string>) =>
    addPetstoreStages(
      appWithFlags({ 'aws:cdk:bundling-stacks': [], ...regions, ...context }),
    ).deployAccess.map(
      // The environment is what the CDK CLI deploys to: aws://<account>/<region>.
      (stack) => [stack.stackName, stack.environment.replace(/^aws:\/\/[^/]+\//, '')],
    );

  test("is production's from cdk.json, as deployed: a region, not the profile's", () => {
    // A region the app left to the profile is `unknown-region` in the assembly.
    expect(regionOf.production).toMatch(/^[a-z]{2}(-[a-z]+)+-\d$/);
    expect(synthesized.deployAccess.region).toBe(regionOf.production);
  });

  test("in one account: production's region, for both stages' roles", () => {
    expect(deployAccessOf({})).toEqual([['petstore-deploy-access', 'eu-north-1']]);
  });

  test("in an account per stage: each stack in its own stage's region", () => {
    expect(
      deployAccessOf({ 'staging:account': '111111111111', 'production:account': '222222222222' }),
    ).toEqual([
      ['petstore-deploy-access-staging', 'eu-west-3'],
      ['petstore-deploy-access-production', 'eu-north-1'],
    ]);
  });
});
