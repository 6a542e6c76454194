// What a deploy may touch. CloudFormation deploys the stages with the execution policy; every role it
// creates, its own execution role included, carries the permissions boundary. Both reach only the
// names the project's resources get, so a stage can neither reach past the project nor make a role
// that does. The deploy-access stack creates both policies; docs/decisions.md says why.
import { Fn, Stack } from 'aws-cdk-lib';
import type { DefaultStackSynthesizer } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StageName } from '#lib/stage-settings.ts';

export type IamStatement = {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  Action?: string[];
  NotAction?: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
};

/** Fixed names: `cdk bootstrap` takes both by name, and the stacks name the boundary. */
export const PERMISSIONS_BOUNDARY_NAME = 'petstore-permissions-boundary';
export const EXECUTION_POLICY_NAME = 'petstore-cloudformation-execution-policy';

export type DeployScope = {
  /** The account's id, or a token for it. */
  account: string;
  /** The stages deployed in this account: their stacks are `petstore-<stage>`. */
  stages: StageName[];
  /** The project's CDK bootstrap qualifier. */
  qualifier: string;
};

/** The managed policies the stacks attach to roles of their own, all AWS's service-role policies. */
const ATTACHED_MANAGED_POLICIES = [
  'AmazonAPIGatewayPushToCloudWatchLogs',
  'AWSCodeDeployRoleForLambdaLimited',
  'AWSLambdaBasicExecutionRole',
].map((name) => `arn:aws:iam::aws:policy/service-role/${name}`);

/** What CloudFormation does to a key of the stacks: the key's own policy grants it, not this one. */
export const KEY_MANAGEMENT = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:EnableKeyRotation',
  'kms:GetKeyRotationStatus',
  'kms:UpdateKeyDescription',
  'kms:ListResourceTags',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
];

/** What gives a role its rights: each only with the boundary. */
const ROLE_WRITES = [
  'iam:CreateRole',
  'iam:PutRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:AttachRolePolicy',
];
/** How CloudFormation makes a secret, before it has its stack-name tag. */
const SECRET_CREATION = ['secretsmanager:CreateSecret', 'secretsmanager:TagResource'];
/**
 * What Synthetics does to the canary's function and layer, with the caller's rights: its resource
 * handlers' list (aws-cloudformation-resource-providers-synthetics).
 */
export const CANARY_FUNCTION_CALLS = [
  'lambda:CreateFunction',
  'lambda:AddPermission',
  'lambda:PublishVersion',
  'lambda:UpdateFunctionCode',
  'lambda:UpdateFunctionConfiguration',
  'lambda:GetFunctionConfiguration',
  'lambda:DeleteFunction',
  'lambda:ListTags',
  'lambda:TagResource',
  'lambda:UntagResource',
  'lambda:PublishLayerVersion',
  'lambda:DeleteLayerVersion',
  'lambda:GetLayerVersion',
];
/**
 * Calls that take no resource. Synthetics lists roles and buckets and describes a VPC; CloudFormation
 * makes a secret's value.
 */
const LOOKUPS = [
  's3:ListAllMyBuckets',
  'iam:ListRoles',
  'ec2:DescribeVpcs',
  'ec2:DescribeSubnets',
  'ec2:DescribeSecurityGroups',
  'synthetics:DescribeCanaries',
  'cloudwatch:DescribeAlarms',
  'logs:DescribeLogGroups',
  'logs:DescribeQueryDefinitions',
  'logs:PutQueryDefinition',
  'logs:DeleteQueryDefinition',
  'secretsmanager:GetRandomPassword',
];

/** The ARN of the toolkit's execution role that deploys this construct's stack. */
export const executionRoleArn = (scope: IConstruct) =>
  Fn.sub((Stack.of(scope).synthesizer as DefaultStackSynthesizer).cloudFormationExecutionRoleArn);

export const policyArn = (account: string, name: string) => `arn:aws:iam::${account}:policy/${name}`;

/** CloudFormation's execution policy: what a deploy of the stages may do. */
export function executionPolicy({ account, stages, qualifier }: DeployScope): IamStatement[] {
  const boundary = policyArn(account, PERMISSIONS_BOUNDARY_NAME);
  const arn = (service: string, resource: string, region = '*') =>
    `arn:aws:${service}:${region}:${account}:${resource}`;
  // A stage's own roles: not `petstore-*`, which would take in the deploy roles, which have no boundary.
  const roles = stages.map((stage) => `arn:aws:iam::${account}:role/petstore-${stage}-*`);
  const ofTheStacks = {
    StringEquals: {
      'aws:ResourceTag/aws:cloudformation:stack-name': stages.map((stage) => `petstore-${stage}`),
    },
  };
  const assets = `arn:aws:s3:::cdk-${qualifier}-assets-${account}-*`;
  const webAcls = arn('wafv2', 'regional/webacl/*/*');
  return [
    // The templates' assets in the project toolkit's bucket, and its version, which every template checks.
    allow(
      'ToolkitAssets',
      ['s3:GetObject', 's3:GetBucketLocation', 'ssm:GetParameters'],
      [assets, `${assets}/*`, arn('ssm', `parameter/cdk-bootstrap/${qualifier}/*`)],
    ),
    // The stages' own roles, whatever CloudFormation does to them: the denials below bound it.
    allow('OwnRoles', ['iam:*'], roles),
    // No role anywhere is created or given a policy without the boundary: a stack cannot make an admin.
    deny('NoRoleWithoutTheBoundary', ROLE_WRITES, ['*'], {
      StringNotEquals: { 'iam:PermissionsBoundary': boundary },
    }),
    // Of managed policies, only the AWS service-role ones the stacks name.
    deny('OnlyNamedManagedPolicies', ['iam:AttachRolePolicy'], ['*'], {
      ArnNotEquals: { 'iam:PolicyARN': ATTACHED_MANAGED_POLICIES },
    }),
    // No role loses its boundary.
    deny('NoRemovingTheBoundary', ['iam:DeleteRolePermissionsBoundary'], ['*']),
    // The boundary and this policy change only with the deploy-access stack, which an administrator deploys.
    deny(
      'NoChangingThesePolicies',
      [
        'iam:CreatePolicyVersion',
        'iam:DeletePolicy',
        'iam:DeletePolicyVersion',
        'iam:SetDefaultPolicyVersion',
      ],
      [boundary, policyArn(account, EXECUTION_POLICY_NAME)],
    ),
    // A regional custom domain's first creation makes API Gateway's linked role, and reads its certificate.
    allow(
      'DomainLinkedRole',
      ['iam:CreateServiceLinkedRole'],
      [
        `arn:aws:iam::${account}:role/aws-service-role/ops.apigateway.amazonaws.com/AWSServiceRoleForAPIGateway`,
      ],
      { StringEquals: { 'iam:AWSServiceName': 'ops.apigateway.amazonaws.com' } },
    ),
    allow('DomainCertificate', ['acm:DescribeCertificate'], [arn('acm', 'certificate/*')]),
    // CloudFormation names functions, tables, topics, alarms, rollouts and log groups <stack>-<id>-<suffix>;
    // Lambda names the custom resources' and the canary's log groups after their functions.
    allow(
      'NamedByTheirStack',
      ['lambda:*', 'dynamodb:*', 'sns:*', 'cloudwatch:*', 'codedeploy:*', 'logs:*'],
      [
        arn('lambda', 'function:petstore-*'),
        arn('dynamodb', 'table/petstore-*'),
        arn('sns', 'petstore-*'),
        arn('cloudwatch', 'alarm:petstore-*'),
        arn('cloudwatch', 'dashboard/petstore-*', ''),
        arn('codedeploy', 'application:petstore-*'),
        arn('codedeploy', 'deploymentgroup:petstore-*'),
        arn('codedeploy', 'deploymentconfig:CodeDeployDefault.*'),
        arn('logs', 'log-group:petstore-*'),
        arn('logs', 'log-group:/aws/lambda/petstore-*'),
        arn('logs', 'log-group:/aws/lambda/cwsyn-petstore-*'),
        arn('logs', 'log-group:API-Gateway-Execution-Logs_*'),
      ],
    ),
    // API Gateway's ARNs hold ids, not names: the kinds of object the stacks make, and no API keys.
    allow(
      'ApiGatewayObjects',
      ['apigateway:*'],
      [
        'arn:aws:apigateway:*::/restapis*',
        'arn:aws:apigateway:*::/usageplans*',
        'arn:aws:apigateway:*::/domainnames*',
        'arn:aws:apigateway:*::/account',
        'arn:aws:apigateway:*::/tags/*',
      ],
    ),
    // Secrets and web ACLs are named after their logical ids: a new one is made anywhere, an existing one
    // is reached through the stack-name tag CloudFormation puts on it, which no one else can set.
    allow(
      'NewSecretsAndWebAcls',
      [...SECRET_CREATION, 'wafv2:CreateWebACL', 'wafv2:TagResource'],
      [arn('secretsmanager', 'secret:*'), webAcls],
    ),
    allow(
      'TaggedByTheirStack',
      ['secretsmanager:*', 'wafv2:*'],
      [arn('secretsmanager', 'secret:*'), webAcls],
      ofTheStacks,
    ),
    // No secret of another stack is read or changed, even through a template's dynamic reference.
    {
      Sid: 'NoSecretOfAnotherStack',
      Effect: 'Deny',
      NotAction: SECRET_CREATION,
      Resource: [arn('secretsmanager', 'secret:*')],
      Condition: { StringNotEquals: ofTheStacks.StringEquals },
    },
    // AWS's rule groups, which the web ACL names.
    allow(
      'ManagedRuleGroups',
      ['wafv2:CreateWebACL', 'wafv2:UpdateWebACL'],
      [arn('wafv2', 'regional/managedruleset/*/*')],
    ),
    // A key has no name before it exists. Its own policy grants the rest, so no other key is reachable.
    allow('NewKeys', ['kms:CreateKey'], ['*']),
    // The canary, by its fixed name, and the function and layer Synthetics makes for it (cwsyn-<name>-<id>).
    allow(
      'Canaries',
      ['synthetics:*', ...CANARY_FUNCTION_CALLS],
      [
        arn('synthetics', 'canary:petstore-*'),
        arn('lambda', 'function:cwsyn-petstore-*'),
        arn('lambda', 'layer:cwsyn-petstore-*'),
      ],
    ),
    // Synthetics' runtime layers are AWS's own: read only.
    allow(
      'SyntheticsRuntimeLayers',
      ['lambda:GetLayerVersion'],
      ['arn:aws:lambda:*:*:layer:AWS-CW-Synthetics*', 'arn:aws:lambda:*:*:layer:Synthetics*'],
    ),
    // The canary's bucket: CloudFormation names it <stack>-probeartifacts<suffix>, in S3's global namespace.
    allow('CanaryBuckets', ['s3:*'], ['arn:aws:s3:::petstore-*-probeartifacts*']),
    // Calls that take no resource; all read but the query definitions, which are named <stack>/<query>.
    allow('NoResourceToName', LOOKUPS, ['*']),
  ];
}

/**
 * The permissions boundary: what any role of the stacks may ever do, CloudFormation's own included:
 * the execution policy, its denials too, and what the functions, hooks and canary call at run time.
 */
export function permissionsBoundary(scope: DeployScope): IamStatement[] {
  const { account, qualifier } = scope;
  return [
    ...executionPolicy(scope),
    // X-Ray and CloudWatch metrics take no resource; each hook reports on its own deployment group.
    allow(
      'AtRunTime',
      ['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'cloudwatch:PutMetricData'],
      ['*'],
    ),
    // A boundary limits what a key's policy grants a role too. The keys' policies grant CloudFormation's
    // execution role alone, so only it may manage a key, and only one whose policy names it.
    allow('KeysByTheirOwnPolicy', ['kms:*'], [`arn:aws:kms:*:${account}:key/*`], {
      ArnLike: { 'aws:PrincipalArn': `arn:aws:iam::${account}:role/cdk-${qualifier}-cfn-exec-role-*` },
    }),
  ];
}

type Condition = IamStatement['Condition'];
const statement =
  (Effect: 'Allow' | 'Deny') => (Sid: string, Action: string[], Resource: string[], Condition?: Condition) =>
    ({ Sid, Effect, Action, Resource, ...(Condition && { Condition }) }) as IamStatement;
const allow = statement('Allow');
const deny = statement('Deny');
