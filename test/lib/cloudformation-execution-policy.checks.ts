// The policy docs/deployment.md bootstraps with instead of AdministratorAccess
// (lib/cloudformation-execution-policy.json): it covers every resource type the three stacks create,
// and reaches IAM, Lambda and DynamoDB only through the names CloudFormation gives the stacks' own.
import { describe, expect, test } from '@jest/globals';
import { synthesized } from '#test/lib/synthesize.ts';
import { readRepoJson } from '#test/support/repository.ts';

type Statement = { Action: string | string[]; Resource: string | string[]; Condition?: object };
const policy = readRepoJson('lib/cloudformation-execution-policy.json') as { Statement: Statement[] };
const list = (value: string | string[]) => [value].flat();

/** The IAM service that creates each CloudFormation namespace's resources. */
const SERVICE_OF: Record<string, string | undefined> = {
  'AWS::ApiGateway': 'apigateway',
  'AWS::CDK': undefined, // CDK's metadata: nothing is created
  'AWS::CloudWatch': 'cloudwatch',
  'AWS::CodeDeploy': 'codedeploy',
  'AWS::DynamoDB': 'dynamodb',
  'AWS::IAM': 'iam',
  'AWS::KMS': 'kms',
  'AWS::Lambda': 'lambda',
  'AWS::Logs': 'logs',
  'AWS::SNS': 'sns',
  'AWS::SecretsManager': 'secretsmanager',
  'AWS::WAFv2': 'wafv2',
  Custom: 'lambda', // a custom resource is a function CloudFormation invokes
};

const templates = [
  synthesized.staging.template.toJSON(),
  synthesized.production.template.toJSON(),
  synthesized.deployAccess.toJSON(),
] as { Resources: Record<string, { Type: string }> }[];
const types = [
  ...new Set(templates.flatMap(({ Resources }) => Object.values(Resources).map(({ Type }) => Type))),
];
const stackNames = [
  synthesized.stages.staging.stack.stackName,
  synthesized.stages.production.stack.stackName,
  synthesized.stages.deployAccess.stackName,
];

describe('the CloudFormation execution policy', () => {
  test.each(types)('lets CloudFormation create %s', (type) => {
    const namespace = type.startsWith('Custom::') ? 'Custom' : type.split('::').slice(0, 2).join('::');
    expect(Object.keys(SERVICE_OF)).toContain(namespace);
    const service = SERVICE_OF[namespace];
    if (service === undefined) return;
    const actions = policy.Statement.flatMap(({ Action }) => list(Action));
    expect(actions.filter((action) => action.startsWith(`${service}:`)).length).toBeGreaterThan(0);
  });

  test('grants no service outside the stacks, and never every action', () => {
    const services = new Set([...Object.values(SERVICE_OF), 'ssm']);
    for (const action of policy.Statement.flatMap(({ Action }) => list(Action))) {
      expect(action).not.toBe('*');
      expect(services).toContain(action.split(':')[0]);
    }
  });

  test("reaches roles, functions and tables only by their stack's name, which starts petstore-", () => {
    for (const name of stackNames) expect(name).toMatch(/^petstore-/);
    for (const { Action, Resource } of policy.Statement) {
      const services = new Set(list(Action).map((action) => action.split(':')[0]));
      if (!['iam', 'lambda', 'dynamodb'].some((service) => services.has(service))) continue;
      expect(services.size).toBe(1);
      for (const resource of list(Resource))
        expect(resource).toMatch(
          /^arn:aws:(iam::\*:role\/petstore-\*|lambda:\*:\*:function:petstore-\*|dynamodb:\*:\*:table\/petstore-\*|iam::\*:oidc-provider\/token\.actions\.githubusercontent\.com)$/,
        );
    }
  });

  test('attaches no managed policy but those the stacks name', () => {
    const attached = templates.flatMap(({ Resources }) =>
      Object.values(Resources).flatMap((resource) => {
        const arns = (resource as { Properties?: { ManagedPolicyArns?: unknown[] } }).Properties
          ?.ManagedPolicyArns;
        return (arns ?? []).map((arn) => JSON.stringify(arn).replace(/.*:iam::aws:policy\/([^"]+)".*/, '$1'));
      }),
    );
    const attaching = policy.Statement.find(({ Action }) => list(Action).includes('iam:AttachRolePolicy'));
    const allowed = (attaching?.Condition as { ArnEquals: Record<string, string[]> }).ArnEquals[
      'iam:PolicyARN'
    ];
    expect(new Set(allowed?.map((arn) => arn.replace('arn:aws:iam::aws:policy/', '')))).toEqual(
      new Set(attached),
    );
  });

  test('gives no role, function or table of the stacks a name of its own', () => {
    const named = templates.flatMap(({ Resources }) =>
      Object.entries(Resources).filter(([, resource]) => {
        const properties = (resource as { Properties?: Record<string, unknown> }).Properties ?? {};
        return ['RoleName', 'FunctionName', 'TableName'].some(
          (key) => key in properties && (resource as { Type: string }).Type.endsWith(key.replace('Name', '')),
        );
      }),
    );
    expect(named.map(([logicalId]) => logicalId)).toEqual([]);
  });
});
