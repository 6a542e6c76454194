// The deploy role's stack (lib/deploy-access-stack.ts): GitHub's OIDC provider and a role that only
// this repository's main branch and its staging and production environments may assume, through
// that provider, and that may do nothing but assume the CDK bootstrap roles.
import { describe, expect, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties } from '#test/lib/synthesize.ts';
import { sortStatements } from '#test/lib/templates.ts';

const template = synthesized.deployAccess;
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Properties }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
/** `repo:${GitHubRepository}:...` as CloudFormation builds it from the parameter. */
const subject = (rest: string) => ({ 'Fn::Join': ['', ['repo:', { Ref: 'GitHubRepository' }, rest]] });

describe('the deploy role stack', () => {
  const [[providerId, provider] = []] = ofType('AWS::IAM::OIDCProvider');
  const [[, role] = []] = ofType('AWS::IAM::Role');

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

  test("trusted only through that provider, for this repository's main branch and environments", () => {
    expect(role?.Properties.AssumeRolePolicyDocument).toEqual({
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
              'token.actions.githubusercontent.com:sub': [
                subject(':ref:refs/heads/main'),
                subject(':environment:staging'),
                subject(':environment:production'),
              ],
            },
          },
        },
      ],
    });
    expect(role?.Properties).toMatchObject({ MaxSessionDuration: 3600 });
    // CloudFormation names it; the workflow reads its ARN from the DeployRoleArn output.
    expect(role?.Properties.RoleName).toBeUndefined();
    expect(role?.Properties).not.toHaveProperty('ManagedPolicyArns');
  });

  test('it may only assume the CDK bootstrap roles of its account', () => {
    const policies = ofType('AWS::IAM::Policy');
    expect(policies).toHaveLength(1);
    const statements = (policies[0]?.[1].Properties.PolicyDocument as { Statement: unknown[] }).Statement;
    expect(sortStatements(statements)).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':role/cdk-hnb659fds-*'],
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
  });

  test('its ARN is an output, for the repository variable AWS_DEPLOY_ROLE_ARN', () => {
    template.hasOutput('DeployRoleArn', {
      Value: Match.objectLike({ 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }),
    });
  });
});
