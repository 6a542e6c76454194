// What operators tell the app in cdk.json or with `-c` (lib/app-context.ts): each stage's region binds
// its stack to that region; a custom domain gives a regional domain with base path v1 and the base
// address https://<domain>/v1; an existing GitHub provider is used instead of a new one; a value that
// cannot be right stops `cdk synth` with one line, as cdk-nag's findings do (lib/validation-report.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ContextError, customDomain, existingOidcProviderArn, stageRegion } from '#lib/app-context.ts';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { validationFailures } from '#lib/validation-report.ts';
import { runNode } from '#test/support/process.ts';
import { REPO_ROOT, readRepoJson } from '#test/support/repository.ts';
import { appWithFlags } from '#test/lib/app-with-flags.ts';

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0b0e8f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const PROVIDER = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';

// The templates are read, not deployed: no function is bundled.
const appWith = (context: Record<string, unknown>) =>
  appWithFlags({ 'aws:cdk:bundling-stacks': [], ...context });

describe('a custom domain for production, and an existing GitHub provider', () => {
  const stages = addPetstoreStages(
    appWith({
      'production:region': 'eu-west-1',
      'production:domainName': 'API.example.com',
      'production:certificateArn': CERTIFICATE,
      githubOidcProviderArn: PROVIDER,
    }),
  );
  const production = Template.fromStack(stages.production.stack).toJSON();
  const staging = Template.fromStack(stages.staging.stack).toJSON();
  const resources = production.Resources as Record<
    string,
    { Type: string; Properties: Record<string, unknown> }
  >;
  const only = (type: string) => {
    const found = Object.entries(resources).filter(([, resource]) => resource.Type === type);
    expect(found).toHaveLength(1);
    return found[0] ?? ['', { Type: type, Properties: {} }];
  };

  test('a regional domain with its certificate and TLS 1.2, whose base path v1 is stage v1', () => {
    const [domainId, domain] = only('AWS::ApiGateway::DomainName');
    expect(domain.Properties).toMatchObject({
      DomainName: 'api.example.com',
      EndpointConfiguration: { Types: ['REGIONAL'] },
      RegionalCertificateArn: CERTIFICATE,
      SecurityPolicy: 'TLS_1_2',
    });
    const [, mapping] = only('AWS::ApiGateway::BasePathMapping');
    expect(mapping.Properties).toEqual({
      DomainName: { Ref: domainId },
      BasePath: 'v1',
      RestApiId: { Ref: only('AWS::ApiGateway::RestApi')[0] },
      Stage: { Ref: only('AWS::ApiGateway::Stage')[0] },
    });
  });

  test('the base address is on the domain, still ending in /v1; the DNS target is an output', () => {
    const outputs = production.Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ApiUrl?.Value).toBe('https://api.example.com/v1');
    const [domainId] = only('AWS::ApiGateway::DomainName');
    expect(outputs.DomainTarget?.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    expect(outputs.DomainTargetZone?.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] });
  });

  test('staging, without one, keeps its execute-api address', () => {
    const types = Object.values(staging.Resources as Record<string, { Type: string }>).map(
      ({ Type }) => Type,
    );
    expect(types).not.toContain('AWS::ApiGateway::DomainName');
    expect(JSON.stringify((staging.Outputs as Record<string, unknown>).ApiUrl)).toContain('.execute-api.');
  });

  test('the deploy role trusts the existing provider, and no new one is made', () => {
    const [deployAccess] = stages.deployAccess;
    if (!deployAccess) throw new Error('no deploy access stack');
    const access = Template.fromStack(deployAccess);
    access.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    access.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [{ Principal: { Federated: PROVIDER } }] },
    });
  });
});

describe('stages in two accounts', () => {
  const stages = addPetstoreStages(
    appWith({ 'staging:account': '111111111111', 'production:account': '222222222222' }),
  );

  test("each account gets a deploy roles stack of its own, holding only its stage's role", () => {
    const byStack = stages.deployAccess.map((stack) => {
      const roles = Template.fromStack(stack).findResources('AWS::IAM::Role');
      const subjects = Object.values(roles).map((role) =>
        JSON.stringify(role.Properties.AssumeRolePolicyDocument).replace(/.*:environment:(\w+).*/, '$1'),
      );
      return [stack.stackName, stack.account, stack.region, subjects];
    });
    expect(byStack).toEqual([
      ['petstore-deploy-access-staging', '111111111111', stages.staging.stack.region, ['staging']],
      ['petstore-deploy-access-production', '222222222222', stages.production.stack.region, ['production']],
    ]);
  });

  test("one account: one stack, bound to production's account and region, with both roles", () => {
    const [shared, ...others] = addPetstoreStages(
      appWith({ 'production:account': '333333333333', 'staging:account': '333333333333' }),
    ).deployAccess;
    expect(others).toEqual([]);
    expect([shared?.stackName, shared?.account, shared?.region]).toEqual([
      'petstore-deploy-access',
      '333333333333',
      stages.production.stack.region,
    ]);
    expect(Object.keys(shared?.roles ?? {}).sort()).toEqual(['production', 'staging']);
  });
});

const cdkJsonContext = (readRepoJson('cdk.json') as { context: Record<string, unknown> }).context;

describe("a stage's region", () => {
  const regionOf = (context: Record<string, unknown>) => () => stageRegion((key) => context[key], 'staging');

  test("is cdk.json's setting, which binds the stage's stack to it", () => {
    const region = cdkJsonContext['staging:region'];
    expect(region).toMatch(/^[a-z]{2}-[a-z]+-\d$/);
    expect(regionOf(cdkJsonContext)()).toBe(region);
    expect(addPetstoreStages(appWith({ 'staging:region': 'eu-north-1' })).staging.stack.region).toBe(
      'eu-north-1',
    );
  });

  test.each([
    [
      {},
      'staging:region is not set: give the stage\'s region in cdk.json\'s context, for example "staging:region": "eu-west-1".',
    ],
    [{ 'staging:region': 'Europe' }, 'staging:region must be an AWS region like eu-west-1, not "Europe".'],
    [{ 'staging:region': 3 }, 'staging:region must be an AWS region like eu-west-1, not 3.'],
  ])('%j stops the synthesis with one line', (context, message) => {
    expect(regionOf(context)).toThrow(new ContextError(message));
  });

  test('npm run stage-region prints it for the workflow and the runbook, or the usage line', async () => {
    const printed = await runNode(['scripts/stage-region.ts', 'production'], { cwd: REPO_ROOT });
    expect(printed).toMatchObject({ code: 0, stdout: `${String(cdkJsonContext['production:region'])}\n` });
    const unknown = await runNode(['scripts/stage-region.ts', 'prod'], { cwd: REPO_ROOT });
    expect(unknown).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'usage: npm run stage-region -- <staging|production>\n',
    });
  });
});

describe('context values that cannot be right', () => {
  const domainOf = (context: Record<string, string>, region?: string) => () =>
    customDomain(new App({ context }), 'production', region);

  test.each([
    [
      { 'production:domainName': 'api.example.com' },
      'production: give both production:domainName and production:certificateArn, or neither.',
    ],
    [
      { 'production:certificateArn': CERTIFICATE },
      'production: give both production:domainName and production:certificateArn, or neither.',
    ],
    [
      { 'production:domainName': 'https://api.example.com', 'production:certificateArn': CERTIFICATE },
      'production:domainName must be a domain name like api.example.com, not "https://api.example.com".',
    ],
    [
      { 'production:domainName': 'api.example.com', 'production:certificateArn': 'my-certificate' },
      'production:certificateArn must be an ACM certificate ARN, not "my-certificate".',
    ],
  ])('%j', (context, message) => {
    expect(domainOf(context)).toThrow(new ContextError(message));
  });

  test("a certificate outside the stage's region", () => {
    const context = { 'production:domainName': 'api.example.com', 'production:certificateArn': CERTIFICATE };
    expect(domainOf(context, 'us-east-1')).toThrow(
      "production:certificateArn is in eu-west-1; a regional domain needs a certificate in the stage's region, us-east-1.",
    );
    expect(domainOf(context, 'eu-west-1')()).toEqual({
      domainName: 'api.example.com',
      certificateArn: CERTIFICATE,
    });
  });

  test("a provider ARN that is not GitHub's", () => {
    const app = new App({
      context: { githubOidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/example.com' },
    });
    expect(() => existingOidcProviderArn(app)).toThrow(ContextError);
  });

  test('cdk synth stops with the one line, and no stack trace', async () => {
    const run = await runNode(['bin/app.ts'], {
      cwd: REPO_ROOT,
      env: {
        // What the CLI hands over: cdk.json's context, and here one value too few.
        CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJsonContext, 'staging:domainName': 'api.example.com' }),
        CDK_OUTDIR: mkdtempSync(join(tmpdir(), 'petstore-cdk-')),
      },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'petstore: staging: give both staging:domainName and staging:certificateArn, or neither.\n',
    );
  });
});

describe('a cdk-nag finding', () => {
  test('is one line naming the rule and the construct, from the assembly the app wrote', () => {
    const app = appWith({});
    const stack = new Stack(app, 'Nagged');
    new Role(stack, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('ReadOnlyAccess')],
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // In a test the app throws after writing the report; under the CDK CLI it exits 0 instead.
    expect(() => app.synth()).toThrow(/A copy of this report can be found in/);
    expect(validationFailures(app.outdir)).toEqual([
      'AwsSolutions: AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/ReadOnlyAccess] on Nagged/Role/Resource: The IAM user, role, or group uses AWS managed policies.',
    ]);
  });

  test('none, for the assembly of an app without findings', () => {
    expect(validationFailures(mkdtempSync(join(tmpdir(), 'petstore-cdk-')))).toEqual([]);
  });
});
