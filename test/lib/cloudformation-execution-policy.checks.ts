// The policy docs/deployment.md bootstraps with instead of AdministratorAccess
// (lib/cloudformation-execution-policy.json): it covers every resource type the stacks create, custom
// domain included, and what CloudFormation needs of other services for them, and reaches IAM, Lambda
// and DynamoDB only through the names CloudFormation gives the stacks' own.
import { describe, expect, test } from '@jest/globals';
import { Template } from 'aws-cdk-lib/assertions';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { appWithFlags, synthesized } from '#test/lib/synthesize.ts';
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
  'AWS::S3': 's3',
  'AWS::SNS': 'sns',
  'AWS::SecretsManager': 'secretsmanager',
  'AWS::Synthetics': 'synthetics',
  'AWS::WAFv2': 'wafv2',
  Custom: 'lambda', // a custom resource is a function CloudFormation invokes
};

/** What CloudFormation asks of other services, as the caller, to create a resource of these types. */
const CROSS_SERVICE: Record<string, string[]> = {
  // The code is read from the bootstrap bucket with the caller's rights; the role is passed.
  'AWS::Lambda::Function': ['s3:GetObject', 'iam:PassRole'],
  'AWS::CodeDeploy::DeploymentGroup': ['iam:PassRole'],
  'AWS::ApiGateway::Account': ['iam:PassRole'],
  // A regional domain's first creation makes API Gateway's service-linked role.
  'AWS::ApiGateway::DomainName': ['iam:CreateServiceLinkedRole', 'acm:DescribeCertificate'],
  // Synthetics makes the canary's function and layer with the caller's rights, from its code asset: the
  // permissions its resource handlers list beyond synthetics:* (aws-cloudformation-resource-providers-
  // synthetics, aws-synthetics-canary.json; the ec2 ones describe a VPC, which the probe has none of).
  'AWS::Synthetics::Canary': [
    'iam:PassRole',
    'iam:ListRoles',
    'lambda:CreateFunction',
    'lambda:AddPermission',
    'lambda:PublishVersion',
    'lambda:UpdateFunctionCode',
    'lambda:UpdateFunctionConfiguration',
    'lambda:GetFunctionConfiguration',
    'lambda:GetLayerVersionByArn',
    'lambda:GetLayerVersion',
    'lambda:PublishLayerVersion',
    'lambda:ListTags',
    'lambda:TagResource',
    'lambda:UntagResource',
    'lambda:DeleteFunction',
    'lambda:DeleteLayerVersion',
    's3:CreateBucket',
    's3:GetObject',
    's3:GetObjectVersion',
    's3:PutBucketEncryption',
    's3:PutEncryptionConfiguration',
    's3:GetBucketLocation',
    's3:ListAllMyBuckets',
    'ec2:DescribeVpcs',
    'ec2:DescribeSubnets',
    'ec2:DescribeSecurityGroups',
  ],
};

/** IAM's wildcard: `*` for any run of characters. */
const matches = (pattern: string, value: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);
const allowed = (action: string) =>
  policy.Statement.some(({ Action }) => list(Action).some((pattern) => matches(pattern, action)));

// Production with a custom domain, as cdk.json may configure it: its resource types count too.
const withDomain = addPetstoreStages(
  appWithFlags({
    'aws:cdk:bundling-stacks': [],
    'production:domainName': 'api.example.com',
    'production:certificateArn': `arn:aws:acm:${synthesized.stages.production.stack.region}:123456789012:certificate/0b0e8f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
  }),
);

const templates = [
  synthesized.staging.template.toJSON(),
  synthesized.production.template.toJSON(),
  synthesized.deployAccess.toJSON(),
  Template.fromStack(withDomain.production.stack).toJSON(),
] as { Resources: Record<string, { Type: string }> }[];
const types = [
  ...new Set(templates.flatMap(({ Resources }) => Object.values(Resources).map(({ Type }) => Type))),
];
const stackNames = [
  synthesized.stages.staging.stack.stackName,
  synthesized.stages.production.stack.stackName,
  ...synthesized.stages.deployAccess.map(({ stackName }) => stackName),
];

describe('the CloudFormation execution policy', () => {
  test.each(types)('lets CloudFormation create %s', (type) => {
    const namespace = type.startsWith('Custom::') ? 'Custom' : type.split('::').slice(0, 2).join('::');
    expect(Object.keys(SERVICE_OF)).toContain(namespace);
    const service = SERVICE_OF[namespace];
    if (service === undefined) return;
    const actions = policy.Statement.flatMap(({ Action }) => list(Action));
    expect(actions.filter((action) => action.startsWith(`${service}:`)).length).toBeGreaterThan(0);
    for (const action of CROSS_SERVICE[type] ?? [])
      expect([type, action, allowed(action)]).toEqual([type, action, true]);
  });

  test('finds the custom domain among the types', () => {
    expect(types).toEqual(expect.arrayContaining(['AWS::ApiGateway::DomainName', 'Custom::AWS']));
  });

  test("reads code only from CDK's bootstrap buckets, and makes only API Gateway's linked role", () => {
    const statementOf = (action: string) =>
      policy.Statement.filter(({ Action }) => list(Action).includes(action));
    expect(statementOf('s3:GetObject').flatMap(({ Resource }) => list(Resource))).toEqual([
      'arn:aws:s3:::cdk-*-assets-*/*',
    ]);
    expect(statementOf('iam:CreateServiceLinkedRole').map(({ Condition }) => Condition)).toEqual([
      { StringEquals: { 'iam:AWSServiceName': 'ops.apigateway.amazonaws.com' } },
    ]);
  });

  test('grants no service outside the stacks, and never every action; of EC2, only descriptions', () => {
    const services = new Set([...Object.values(SERVICE_OF), 'ssm', 's3', 'acm', 'ec2']);
    for (const action of policy.Statement.flatMap(({ Action }) => list(Action))) {
      expect(action).not.toBe('*');
      expect(services).toContain(action.split(':')[0]);
      if (action.startsWith('ec2:')) expect(action).toMatch(/^ec2:Describe[A-Z]\w+$/);
    }
  });

  test("reaches roles, functions and tables only by their stack's name, or the probe's by Synthetics'", () => {
    for (const name of stackNames) expect(name).toMatch(/^petstore-/);
    // A lookup that reads names only: Synthetics lists the roles to read its canary back.
    const lookups = new Set(['iam:ListRoles']);
    for (const { Action, Resource } of policy.Statement) {
      const actions = list(Action).filter((action) => !lookups.has(action));
      const services = new Set(actions.map((action) => action.split(':')[0]));
      if (!['iam', 'lambda', 'dynamodb'].some((service) => services.has(service))) continue;
      if (services.has('iam') && actions.includes('iam:CreateServiceLinkedRole')) continue;
      expect(services.size).toBe(1);
      for (const resource of list(Resource))
        expect(resource).toMatch(
          /^arn:aws:(iam::\*:role\/petstore-\*|lambda:\*:\*:function:petstore-\*|lambda:\*:\*:(function|layer):cwsyn-\*|lambda:\*:\*:layer:(AWS-CW-)?Synthetics\*|dynamodb:\*:\*:table\/petstore-\*|iam::\*:oidc-provider\/token\.actions\.githubusercontent\.com)$/,
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
