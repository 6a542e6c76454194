// What a deploy may touch (lib/deploy-policies.ts), proved with the project's IAM evaluator: each call
// CloudFormation makes for the templates is allowed and within the boundary, and is the reason for each
// allowed action; each role of the stacks stays within the boundary; each escalation a deploy could try
// is denied by the statement named, so that removing any denial fails a check.
import { describe, expect, test } from '@jest/globals';
import { Template } from 'aws-cdk-lib/assertions';
import {
  EXECUTION_POLICY_NAME,
  KEY_MANAGEMENT,
  PERMISSIONS_BOUNDARY_NAME,
  executionPolicy,
  permissionsBoundary,
  policyArn,
} from '#lib/deploy-policies.ts';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import type { CloudTemplate as TemplateJson } from '#local/cloud-assembly/template.ts';
import { evaluatePolicy } from '#local/iam/policy.ts';
import type { AuthorizationRequest, PolicyStatement } from '#local/iam/policy.ts';
import {
  ACCOUNT,
  bootstrapVersionCall,
  cloudFormationCalls,
  deployedStack,
  withBoundary,
} from '#test/lib/cloudformation-calls.ts';
import type { Call } from '#test/lib/cloudformation-calls.ts';
import { appWithFlags } from '#test/lib/app-with-flags.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { readRepoJson } from '#test/support/repository.ts';

const { context, toolkitStackName } = readRepoJson('cdk.json') as {
  context: Record<string, string>;
  toolkitStackName?: string;
};
const qualifier = context['@aws-cdk/core:bootstrapQualifier'] ?? '';
const scope = { account: ACCOUNT, stages: ['staging' as const, 'production' as const], qualifier };
const execution = executionPolicy(scope) as PolicyStatement[];
const boundary = permissionsBoundary(scope) as PolicyStatement[];
const BOUNDARY_ARN = policyArn(ACCOUNT, PERMISSIONS_BOUNDARY_NAME);
const EXECUTION_ROLE = `arn:aws:iam::${ACCOUNT}:role/cdk-${qualifier}-cfn-exec-role-${ACCOUNT}-us-east-1`;
/** IAM's quota for a managed policy's document, whitespace not counted. */
const MANAGED_POLICY_CHARACTERS = 6_144;

// Production with a custom domain, as cdk.json may configure it: its resource types count too.
const withDomain = addPetstoreStages(
  appWithFlags({
    'aws:cdk:bundling-stacks': [],
    'production:domainName': 'api.example.com',
    'production:certificateArn': `arn:aws:acm:${synthesized.production.region}:${ACCOUNT}:certificate/0b0e8f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
  }),
);
const stages = [
  synthesized.staging,
  synthesized.production,
  {
    template: Template.fromStack(withDomain.production.stack),
    stackName: withDomain.production.stack.stackName,
    region: withDomain.production.stack.region,
  },
].map(({ template, stackName, region }) => ({
  json: template.toJSON() as TemplateJson,
  deployed: { ...deployedStack(template.toJSON() as TemplateJson, stackName, region), stackName },
}));

const CALLS = cloudFormationCalls(BOUNDARY_ARN, qualifier);
const types = [
  ...new Set(stages.flatMap(({ json }) => Object.values(json.Resources).map(({ Type }) => Type))),
];
/** Every call CloudFormation makes for the stacks, as its execution role. */
const calls: Call[] = [
  bootstrapVersionCall(qualifier),
  ...stages.flatMap(({ json, deployed }) =>
    Object.entries(json.Resources).flatMap(
      ([logicalId, resource]) => CALLS[resource.Type]?.(logicalId, resource, deployed) ?? [],
    ),
  ),
].map((call) => ({ ...call, context: { ...call.context, 'aws:PrincipalArn': [EXECUTION_ROLE] } }));
const decide = (statements: PolicyStatement[], request: AuthorizationRequest) =>
  evaluatePolicy(statements, request);
const allowed = (statements: PolicyStatement[], request: AuthorizationRequest) =>
  decide(statements, request).allowed;

describe("CloudFormation's execution policy and the permissions boundary", () => {
  test('know the calls of every resource type the stacks create, the custom domain included', () => {
    expect(types.filter((type) => !(type in CALLS))).toEqual([]);
    expect(types).toEqual(
      expect.arrayContaining(['AWS::ApiGateway::DomainName', 'AWS::SecretsManager::ResourcePolicy']),
    );
  });

  test.each(types)('let CloudFormation make a %s, within the boundary on its own role', (type) => {
    const refused = calls
      .filter((call) => call.type === type)
      .filter((call) => !allowed(execution, call) || !allowed(boundary, call))
      .map(({ action, resource }) => `${action} ${resource}`);
    expect(refused).toEqual([]);
  });

  test('allow no action that is not one of those calls: each has a reason', () => {
    const unused = execution
      .filter(({ Effect }) => Effect === 'Allow')
      .flatMap((statement) =>
        [statement.Action ?? []]
          .flat()
          .filter(
            (action) =>
              !calls.some(
                (call) =>
                  call.action.toLowerCase().startsWith(action.replace('*', '').toLowerCase()) &&
                  allowed([statement], call),
              ),
          )
          .map((action) => `${statement.Sid}: ${action}`),
      );
    expect(unused).toEqual([]);
  });

  test('fit in a managed policy each, and are what the deploy-access stack creates', () => {
    for (const statements of [execution, boundary])
      expect(JSON.stringify({ Version: '2012-10-17', Statement: statements }).length).toBeLessThanOrEqual(
        MANAGED_POLICY_CHARACTERS,
      );
    const policies = synthesized.deployAccess.template.findResources('AWS::IAM::ManagedPolicy');
    const byName = Object.fromEntries(
      Object.values(policies).map(({ Properties }) => [
        Properties.ManagedPolicyName,
        Properties.PolicyDocument.Statement,
      ]),
    );
    expect(Object.keys(byName).sort()).toEqual([EXECUTION_POLICY_NAME, PERMISSIONS_BOUNDARY_NAME]);
    const sids = (statements: { Sid: string }[]) => statements.map(({ Sid }) => Sid);
    expect(sids(byName[EXECUTION_POLICY_NAME])).toEqual(sids(execution as { Sid: string }[]));
    expect(sids(byName[PERMISSIONS_BOUNDARY_NAME])).toEqual(sids(boundary as { Sid: string }[]));
  });
});

describe('the roles of the stacks', () => {
  const roles = stages.slice(0, 2).flatMap(({ json, deployed }) =>
    Object.entries(json.Resources)
      .filter(([, { Type }]) => Type === 'AWS::IAM::Role')
      .map(([logicalId, role]) => ({ logicalId, role, json, deployed })),
  );

  test('each carries the boundary, CDK custom-resource roles included', () => {
    expect(roles.map(({ logicalId }) => logicalId)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^CustomS3AutoDeleteObjects/)]),
    );
    for (const { role, deployed } of roles)
      expect(deployed.resolve(role.Properties?.PermissionsBoundary)).toBe(BOUNDARY_ARN);
  });

  test('each may do within the boundary all its own policies say', () => {
    const outside = roles.flatMap(({ logicalId, role, json, deployed }) => {
      const inline = (
        (role.Properties?.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[]
      ).flatMap(({ PolicyDocument }) => PolicyDocument.Statement);
      const attached = Object.values(json.Resources)
        .filter(
          ({ Type, Properties }) =>
            Type === 'AWS::IAM::Policy' && JSON.stringify(Properties?.Roles).includes(`"${logicalId}"`),
        )
        .flatMap(({ Properties }) => (Properties?.PolicyDocument as { Statement: unknown[] }).Statement);
      // Its requests reach the stack's own resources, which carry the stack's tag where their type takes it.
      const principal = {
        'aws:PrincipalArn': [deployed.arnOf(logicalId)],
        'aws:ResourceTag/aws:cloudformation:stack-name': [deployed.stackName],
      };
      return (
        deployed.resolve([...inline, ...attached]) as {
          Action: string | string[];
          Resource: string | string[];
        }[]
      ).flatMap(({ Action, Resource }) =>
        [Action].flat().flatMap((action) =>
          [Resource]
            .flat()
            .filter((resource) => !allowed(boundary, { action, resource, context: principal }))
            .map((resource) => `${logicalId}: ${action} ${resource}`),
        ),
      );
    });
    expect(outside).toEqual([]);
  });

  test("each key's own policy lets CloudFormation's execution role alone manage it", () => {
    for (const { json, deployed } of stages) {
      for (const [logicalId, key] of Object.entries(json.Resources).filter(
        ([, { Type }]) => Type === 'AWS::KMS::Key',
      )) {
        const statements = (
          deployed.resolve(key.Properties?.KeyPolicy) as {
            Statement: (PolicyStatement & { Principal: { AWS?: string } })[];
          }
        ).Statement;
        const ofTheRole = statements.filter(({ Principal }) => Principal.AWS === EXECUTION_ROLE);
        for (const action of KEY_MANAGEMENT) {
          const request = {
            action,
            resource: deployed.arnOf(logicalId),
            context: { 'aws:PrincipalArn': [EXECUTION_ROLE] },
          };
          expect([logicalId, action, allowed(ofTheRole, request), allowed(boundary, request)]).toEqual([
            logicalId,
            action,
            true,
            true,
          ]);
          // Another role with the boundary may not, whatever policy a deploy gave it.
          expect(
            allowed(boundary, {
              ...request,
              context: { 'aws:PrincipalArn': [`arn:aws:iam::${ACCOUNT}:role/petstore-staging-X`] },
            }),
          ).toBe(false);
        }
      }
    }
  });
});

/** What a deploy, or a role it made, might try beyond the project; and the denial that stops it. */
const OTHER_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/11111111-2222-3333-4444-555555555555`;
const ADMIN = 'arn:aws:iam::aws:policy/AdministratorAccess';
const STAGE_ROLE = `arn:aws:iam::${ACCOUNT}:role/petstore-staging-ListPetsRole-A1B2C3D4E5F6`;
const otherTag = { 'aws:ResourceTag/aws:cloudformation:stack-name': ['billing'] };
const ESCALATIONS: [name: string, request: AuthorizationRequest, deniedBy: string | null][] = [
  [
    "read another stack's secret",
    {
      action: 'secretsmanager:GetSecretValue',
      resource: `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:billing-db-AbC123`,
      context: otherTag,
    },
    'NoSecretOfAnotherStack',
  ],
  [
    'read a secret no stack made',
    {
      action: 'secretsmanager:GetSecretValue',
      resource: `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:root-password-AbC123`,
      context: {},
    },
    'NoSecretOfAnotherStack',
  ],
  [
    "give another stack's secret a policy",
    {
      action: 'secretsmanager:PutResourcePolicy',
      resource: `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:billing-db-AbC123`,
      context: otherTag,
    },
    'NoSecretOfAnotherStack',
  ],
  ["change another key's policy", { action: 'kms:PutKeyPolicy', resource: OTHER_KEY, context: {} }, null],
  ['delete another key', { action: 'kms:ScheduleKeyDeletion', resource: OTHER_KEY, context: {} }, null],
  [
    'create a role without the boundary',
    { action: 'iam:CreateRole', resource: STAGE_ROLE, context: {} },
    'NoRoleWithoutTheBoundary',
  ],
  [
    'create a role with a boundary of its own',
    { action: 'iam:CreateRole', resource: STAGE_ROLE, context: withBoundary(ADMIN) },
    'NoRoleWithoutTheBoundary',
  ],
  [
    "swap a role's boundary",
    { action: 'iam:PutRolePermissionsBoundary', resource: STAGE_ROLE, context: withBoundary(ADMIN) },
    'NoRoleWithoutTheBoundary',
  ],
  [
    'give a deploy role, which has no boundary, a policy',
    {
      action: 'iam:PutRolePolicy',
      resource: `arn:aws:iam::${ACCOUNT}:role/petstore-deploy-access-StagingRole-A1B2`,
      context: {},
    },
    'NoRoleWithoutTheBoundary',
  ],
  [
    'attach AdministratorAccess to a role of the stacks',
    {
      action: 'iam:AttachRolePolicy',
      resource: STAGE_ROLE,
      context: { ...withBoundary(BOUNDARY_ARN), 'iam:PolicyARN': [ADMIN] },
    },
    'OnlyNamedManagedPolicies',
  ],
  [
    'remove the boundary from a role',
    { action: 'iam:DeleteRolePermissionsBoundary', resource: STAGE_ROLE, context: {} },
    'NoRemovingTheBoundary',
  ],
  [
    'delete the boundary policy',
    { action: 'iam:DeletePolicy', resource: BOUNDARY_ARN, context: {} },
    'NoChangingThesePolicies',
  ],
  [
    'give the boundary policy a new version',
    { action: 'iam:CreatePolicyVersion', resource: BOUNDARY_ARN, context: {} },
    'NoChangingThesePolicies',
  ],
  [
    'give the execution policy a new version',
    { action: 'iam:CreatePolicyVersion', resource: policyArn(ACCOUNT, EXECUTION_POLICY_NAME), context: {} },
    'NoChangingThesePolicies',
  ],
  [
    "update another team's canary function",
    {
      action: 'lambda:UpdateFunctionCode',
      resource: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:cwsyn-billing-0b0e8f2a`,
      context: {},
    },
    null,
  ],
  [
    "give another team's canary function a URL",
    {
      action: 'lambda:CreateFunctionUrlConfig',
      resource: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:cwsyn-billing-0b0e8f2a`,
      context: {},
    },
    null,
  ],
  [
    "change another team's canary",
    {
      action: 'synthetics:UpdateCanary',
      resource: `arn:aws:synthetics:us-east-1:${ACCOUNT}:canary:billing`,
      context: {},
    },
    null,
  ],
  [
    "write another project's bucket",
    { action: 's3:PutObject', resource: 'arn:aws:s3:::billing-invoices/x', context: {} },
    null,
  ],
  [
    "write a bucket named like the project's",
    { action: 's3:PutObject', resource: 'arn:aws:s3:::petstore-invoices/x', context: {} },
    null,
  ],
  [
    "pass another project's role",
    { action: 'iam:PassRole', resource: `arn:aws:iam::${ACCOUNT}:role/billing-admin`, context: {} },
    null,
  ],
  [
    "change another team's web ACL",
    {
      action: 'wafv2:UpdateWebACL',
      resource: `arn:aws:wafv2:us-east-1:${ACCOUNT}:regional/webacl/billing/1`,
      context: otherTag,
    },
    null,
  ],
  [
    'read the API keys',
    { action: 'apigateway:GET', resource: 'arn:aws:apigateway:us-east-1::/apikeys', context: {} },
    null,
  ],
];

describe('an escalation', () => {
  test.each(ESCALATIONS)('is denied: %s', (_name, request, deniedBy) => {
    const expected = deniedBy
      ? { allowed: false, reason: 'explicit deny', deniedBy: [deniedBy] }
      : { allowed: false, reason: 'no identity-based policy allows' };
    expect(decide(execution, request)).toEqual(expected);
    // A role with the boundary is stopped the same way, whatever policy a deploy gave it.
    expect(decide(boundary, request)).toEqual(expected);
  });

  test('is what each denial of the policy is there for', () => {
    const denials = execution.filter(({ Effect }) => Effect === 'Deny').map(({ Sid }) => Sid);
    expect(denials.length).toBeGreaterThan(0);
    expect(new Set(ESCALATIONS.flatMap(([, , deniedBy]) => deniedBy ?? []))).toEqual(new Set(denials));
  });
});

describe('the project toolkit', () => {
  test("is the app's: its qualifier in cdk.json, which the stages' synthesizers and `cdk bootstrap` read", () => {
    expect(qualifier).toMatch(/^[a-z0-9]{1,10}$/);
    expect(qualifier).not.toBe('hnb659fds');
    expect(toolkitStackName).toBe(`${qualifier}-toolkit`);
    for (const { template } of [synthesized.staging, synthesized.production])
      expect(template.toJSON().Parameters.BootstrapVersion.Default).toBe(
        `/cdk-bootstrap/${qualifier}/version`,
      );
  });
});
