// The runbook acts only in stated regions, with one way to credentials, and the stage reference's cost
// table is what the stack creates: every AWS CLI and sam command names $REGION from `npm run
// stage-region`, every cdk command reaches only stacks bound to cdk.json's regions, and each count and
// sum of the table is checked against the synthesized templates (the prices are quoted with their date).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { App, Token } from 'aws-cdk-lib';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AWS_PRICES } from '../../bench/cost-basis.ts';
import { EXECUTION_POLICY_NAME, PERMISSIONS_BOUNDARY_NAME } from '#lib/deploy-policies.ts';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { stageRegions } from '#scripts/stage-region.ts';
import { AUTHORIZER } from '#shared/http/routes.ts';
import { readRepoFile, readRepoJson } from '#test/support/repository.ts';
import { commands, isAwsCall, steps } from '#test/docs/shell-commands.ts';
import { tableAfter } from '#test/support/markdown-links.ts';

const runbook = readRepoFile('docs/deployment.md');
const stages = readRepoFile('docs/stages.md');
/** The operator's pages: the runbook, the stage reference, and the local guide's `sam local`. */
const operatorPages = [runbook, stages, readRepoFile('docs/local.md')];
const { scripts } = readRepoJson('package.json') as { scripts: Record<string, string> };
const cdkContext = (readRepoJson('cdk.json') as { context: Record<string, unknown> }).context;
const STAGES = ['staging', 'production'];

/** A step as the CDK CLI receives it: `npm run <script> -- args` is the script's cdk command and args. */
function cdkCommand(step: string): string[] | undefined {
  const script = /^npm run (?:--silent )?([\w:<>-]+)(?: -- (.*))?$/.exec(step);
  if (script) {
    const [, name = '', args = ''] = script;
    const names = name.includes('<stage>') ? STAGES.map((stage) => name.replace('<stage>', stage)) : [name];
    return names
      .map((known) => scripts[known] ?? '')
      .flatMap((command) => (/^cdk /.test(command) ? [`${command} ${args}`.trim()] : []));
  }
  // A bare `cdk deploy` in the text names the command; a runnable one is the project's, `npx cdk`.
  return step.startsWith('npx cdk ') ? [step.replace(/^npx /, '')] : undefined;
}

/** The stack patterns of a cdk command, as the CLI matches them against each stack's path. */
const selectorsOf = (command: string) =>
  command
    .split(/\s+/)
    .map((token) => token.replace(/^"|"$/g, ''))
    .filter((token) => /^[A-Z][\w*/-]*$/.test(token));

const matchesSelector = (selector: string, path: string) =>
  new RegExp(`^${selector.replace(/\*/g, '[^/]*')}$`).test(path);

/** The app as `cdk` builds it, in an environment whose region is none of the stages'. */
function appStacks(context: Record<string, unknown>): Stack[] {
  const saved = { AWS_REGION: process.env.AWS_REGION, CDK_DEFAULT_REGION: process.env.CDK_DEFAULT_REGION };
  Object.assign(process.env, { AWS_REGION: 'ap-south-1', CDK_DEFAULT_REGION: 'ap-south-1' });
  try {
    const app = new App({
      outdir: mkdtempSync(join(tmpdir(), 'petstore-runbook-')),
      context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context },
    });
    const { staging, production, deployAccess } = addPetstoreStages(app);
    return [staging.stack, production.stack, ...deployAccess];
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
  }
}

describe("the operator's pages", () => {
  const lines = operatorPages.flatMap(commands).map(({ text }) => text);

  it('name the region in every AWS CLI and sam command', () => {
    // `sam local invoke` alone, in the text, names the command; with arguments it is one to run.
    const calls = lines.flatMap(steps).filter((step) => isAwsCall(step) || /^sam local \w+ \S/.test(step));
    expect(calls.length).toBeGreaterThan(20);
    expect(calls.filter((call) => !call.includes('--region "$REGION"'))).toEqual([]);
  });

  it("read that region from cdk.json's setting, through npm run stage-region", () => {
    const assignments = lines.filter((line) => line.startsWith('REGION='));
    expect(assignments.length).toBeGreaterThan(3);
    for (const assignment of assignments)
      expect(assignment).toMatch(
        /^REGION=\$\(npm run --silent stage-region -- (staging|production|<stage>)\)/,
      );
  });

  it('never move a stage with -c <stage>:region, nor send the workflow a region variable', () => {
    for (const document of operatorPages) {
      expect(document).not.toMatch(/-c (staging|production):region/);
      expect(document).not.toMatch(/`AWS_REGION` \(the stages' region/);
    }
  });

  it('take credentials one way, AWS_PROFILE, never --profile', () => {
    expect(lines.filter((line) => / --profile\b/.test(line))).toEqual([]);
  });

  it("quote the authorizer's token pattern as the template has it (docs/decisions.md)", () => {
    const [, quoted] = /validation regex\s+`([^`]+)`/.exec(readRepoFile('docs/decisions.md')) ?? [];
    expect(quoted).toBe(AUTHORIZER.validationRegex);
  });
});

describe('the runbook, read top to bottom', () => {
  const all = commands(runbook);
  const lines = all.map(({ text }) => text);
  /** Where a command of the steps, which run in order in one shell, first does this. */
  const firstRun = (test: (line: string) => boolean) => all.findIndex(({ text }) => test(text));

  it('exports one AWS_PROFILE, before anything reaches AWS', () => {
    const exported = new Set(lines.flatMap((line) => /^export AWS_PROFILE=(\S+)/.exec(line)?.[1] ?? []));
    expect(exported.size).toBe(1);
    const reachesAws = (line: string) =>
      steps(line).some((step) => isAwsCall(step) || (cdkCommand(step) ?? []).length > 0);
    expect(firstRun(reachesAws)).toBeGreaterThan(-1);
    expect(firstRun((line) => line.startsWith('export AWS_PROFILE='))).toBeLessThan(firstRun(reachesAws));
  });

  it('sets REGION before its first AWS CLI command', () => {
    const firstCall = firstRun((line) => steps(line).some(isAwsCall));
    expect(firstCall).toBeGreaterThan(-1);
    expect(firstRun((line) => line.startsWith('REGION='))).toBeLessThan(firstCall);
  });

  it("runs keys, restore and prune-versions for a named stage, in the region of that stage's outputs", () => {
    const stageTools = lines
      .flatMap(steps)
      .filter((step) => /^npm run (keys|restore|prune-versions) -- (?!--help)/.test(step));
    expect(stageTools.length).toBeGreaterThan(5);
    expect(stageTools.filter((step) => !/ --stage \S/.test(step))).toEqual([]);
  });

  it('runs the project CDK CLI (npx cdk), never one from the PATH', () => {
    const inBlocks = runbook.match(/```sh\n[\s\S]*?```/g) ?? [];
    expect(inBlocks.join('\n')).not.toMatch(/^\s*cdk /m);
  });
});

describe("the runbook's bootstrap", () => {
  const lines = commands(runbook).map(({ text }) => text);
  const first = (prefix: string) => lines.findIndex((line) => line.startsWith(prefix));

  it('comes after the deploy-access stack, which creates the policies it names', () => {
    expect(first('npx cdk deploy PetstoreDeployAccess ')).toBeGreaterThanOrEqual(0);
    expect(first('npx cdk deploy PetstoreDeployAccess ')).toBeLessThan(first('npx cdk bootstrap '));
  });

  it.each(lines.filter((line) => line.startsWith('npx cdk bootstrap ')))(
    "%s: the execution policy and the boundary, by lib/deploy-policies.ts's names",
    (line) => {
      expect(line).toContain(
        `--cloudformation-execution-policies "arn:aws:iam::$ACCOUNT:policy/${EXECUTION_POLICY_NAME}"`,
      );
      expect(line).toMatch(new RegExp(`--custom-permissions-boundary ${PERMISSIONS_BOUNDARY_NAME}$`));
      // The qualifier and the toolkit's name come from cdk.json, as the app's do.
      expect(line).not.toMatch(/--qualifier|--toolkit-stack-name/);
    },
  );
});

describe("each cdk command of the operator's pages", () => {
  const lines = operatorPages.flatMap(commands).map(({ text }) => text);
  const cdk = lines.flatMap(steps).flatMap((step) => cdkCommand(step) ?? []);
  const regions = new Set(Object.values(stageRegions()));
  // One account, and an account per stage (the deploy roles' stacks then differ).
  const stacks = [
    ...appStacks({}),
    ...appStacks({ 'staging:account': '111111111111', 'production:account': '222222222222' }),
  ];

  it('bootstraps, deploys, diffs, destroys or synthesizes, and nothing else', () => {
    const kinds = new Set(cdk.map((command) => command.split(' ')[1]));
    expect([...kinds]).toEqual(expect.arrayContaining(['bootstrap', 'deploy', 'destroy']));
    expect([...kinds].filter((kind) => !/^(bootstrap|deploy|diff|destroy|synth)$/.test(kind ?? ''))).toEqual(
      [],
    );
  });

  it.each(cdk.filter((command) => /^cdk (deploy|diff|destroy) /.test(command)))(
    '%s reaches only stacks bound to a region of cdk.json',
    (command) => {
      const selectors = selectorsOf(command);
      expect(selectors.length).toBeGreaterThan(0);
      for (const selector of selectors) {
        const reached = stacks.filter((stack) => matchesSelector(selector, stack.node.path));
        expect({ selector, reached: reached.length > 0 }).toEqual({ selector, reached: true });
        for (const stack of reached) {
          expect(Token.isUnresolved(stack.region)).toBe(false);
          expect(regions).toContain(stack.region);
          // What the CLI reads: the stack's environment in the cloud assembly.
          expect(stack.environment).toMatch(new RegExp(`/${stack.region}$`));
        }
      }
    },
  );

  it.each(cdk.filter((command) => command.startsWith('cdk bootstrap')))(
    '%s names its account and $REGION',
    (command) => expect(command).toMatch(/^cdk bootstrap "aws:\/\/\$ACCOUNT\/\$REGION" /),
  );
});

const dollars = (text: string) => Number(/\$([\d.,]+)/.exec(text)?.[1]?.replaceAll(',', '') ?? NaN);
const numbers = (text: string) =>
  [...text.matchAll(/\d[\d,]*(\.\d+)?/g)].map(([figure]) => Number(figure.replaceAll(',', '')));
const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
/** The stage reference's prose as one line, without Markdown marks. */
const prose = stages.replace(/\*\*|`/g, '').replace(/\s+/g, ' ');
const HOURS_A_MONTH = 730;

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

/** A canary's runs in a month, from its schedule's `rate(N minutes)`. */
function runsAMonth(properties: Record<string, unknown> | undefined): number {
  const { Expression } = properties?.Schedule as { Expression: string };
  const [, minutes] = /^rate\((\d+) minutes?\)$/.exec(Expression) ?? [];
  if (!minutes) throw new Error(`A schedule the cost table cannot count: ${Expression}`);
  return (HOURS_A_MONTH * 60) / Number(minutes);
}

/** What a stage's template creates that costs by the month, counted as the cost table counts it. */
function monthlyCounts(resources: Resources) {
  const ofType = (type: string) => Object.values(resources).filter(({ Type }) => Type === type);
  const caches = ofType('AWS::ApiGateway::Stage').filter(({ Properties }) => Properties?.CacheClusterEnabled);
  const alarms = ofType('AWS::CloudWatch::Alarm');
  const alarmIds = Object.keys(resources).filter((id) => resources[id]?.Type === 'AWS::CloudWatch::Alarm');
  const metricsOf = ({ Properties }: { Properties?: Record<string, unknown> }) =>
    ((Properties?.Metrics as { MetricStat?: unknown }[] | undefined) ?? [{ MetricStat: {} }]).filter(
      (query) => query.MetricStat,
    ).length;
  const rules = ofType('AWS::WAFv2::WebACL').flatMap(({ Properties }) => Properties?.Rules as object[]);
  return {
    caches: caches.length,
    cacheGb: caches.map(({ Properties }) => Number(Properties?.CacheClusterSize)),
    webAcls: ofType('AWS::WAFv2::WebACL').length,
    rules: rules.length,
    managedRuleGroups: rules.filter((rule) => JSON.stringify(rule).includes('ManagedRuleGroupStatement'))
      .length,
    repeatedRules: rules.filter((rule) => JSON.stringify(rule).includes('"Name":"Repeated-')).length,
    keys: ofType('AWS::KMS::Key').length,
    rotatedKeys: ofType('AWS::KMS::Key').filter(({ Properties }) => Properties?.EnableKeyRotation).length,
    secrets: ofType('AWS::SecretsManager::Secret').length,
    alarms: alarms.length,
    oneMetricAlarms: alarms.filter((alarm) => !alarm.Properties?.Metrics).length,
    /** The metrics of the table's throttle alarm, and of each SLO window. */
    throttleMetrics: alarmIds
      .filter((id) => id.startsWith('AlarmsDynamoDbThrottles'))
      .map((id) => metricsOf(resources[id] ?? {})),
    windowMetrics: alarmIds
      .filter((id) => /^Slos\w+(Long|Short)/.test(id))
      .map((id) => metricsOf(resources[id] ?? {})),
    alarmMetrics: alarms.map(metricsOf).reduce((sum, count) => sum + count, 0),
    compositeAlarms: ofType('AWS::CloudWatch::CompositeAlarm').length,
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    canaryRuns: ofType('AWS::Synthetics::Canary').map(({ Properties }) => runsAMonth(Properties)),
  };
}

/** Kinds of resource the stacks create that cost nothing by the month (their use is priced per request). */
const FREE_AT_REST = new Set([
  'AWS::ApiGateway::Account',
  'AWS::ApiGateway::Authorizer',
  'AWS::ApiGateway::BasePathMapping',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::DomainName',
  'AWS::ApiGateway::GatewayResponse',
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Resource',
  'AWS::ApiGateway::RestApi',
  'AWS::ApiGateway::UsagePlan',
  'AWS::CDK::Metadata',
  'AWS::CodeDeploy::Application',
  'AWS::IAM::ManagedPolicy',
  'AWS::SecretsManager::ResourcePolicy',
  'AWS::CodeDeploy::DeploymentGroup',
  'AWS::DynamoDB::Table', // on demand: storage, by the GB, is "with the data"
  'AWS::IAM::OIDCProvider',
  'AWS::IAM::Policy',
  'AWS::IAM::Role',
  'AWS::Lambda::Alias', // without provisioned concurrency
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Version',
  'AWS::Logs::LogGroup',
  'AWS::Logs::MetricFilter',
  'AWS::Logs::QueryDefinition', // a query costs what it scans, when it runs
  'AWS::S3::Bucket', // the probe's results: storage is "with the data", writes per use
  'AWS::S3::BucketPolicy',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::WAFv2::WebACLAssociation',
  'Custom::AWS',
  'Custom::S3AutoDeleteObjects',
]);
/** Kinds that do cost by the month: each has its row in the table (a stage without a cache costs nothing). */
const PRICED = new Set([
  'AWS::ApiGateway::Stage',
  'AWS::CloudWatch::Alarm',
  'AWS::CloudWatch::CompositeAlarm',
  'AWS::CloudWatch::Dashboard',
  'AWS::Synthetics::Canary',
  'AWS::KMS::Key',
  'AWS::SecretsManager::Secret',
  'AWS::WAFv2::WebACL',
]);

describe("docs/stages.md's outputs", () => {
  it("names every output of the stacks, a custom domain's too, and no other", () => {
    const withDomain = appStacks({
      'production:domainName': 'api.example.com',
      'production:certificateArn': 'arn:aws:acm:us-east-1:123456789012:certificate/0b0e8f2a',
    });
    const outputs = new Set(
      [...appStacks({}), ...withDomain].flatMap((stack) =>
        Object.keys((Template.fromStack(stack).toJSON() as { Outputs?: object }).Outputs ?? {}),
      ),
    );
    // `<Name>DeploymentGroup` stands for each function's; `(… likewise)` names one more.
    const rows = tableAfter(stages, '## Outputs').flatMap(([name = '', what = '']) => [
      name.replaceAll('`', ''),
      ...[...what.matchAll(/\(`(\w+)` likewise\)/g)].map(([, other = '']) => other),
    ]);
    const pattern = (row: string) => new RegExp(`^${row.replace(/<\w+>/g, '[A-Z]\\w*')}$`);
    expect([...outputs].filter((output) => !rows.some((row) => pattern(row).test(output)))).toEqual([]);
    expect(rows.filter((row) => ![...outputs].some((output) => pattern(row).test(output)))).toEqual([]);
  });
});

describe("docs/stages.md's cost of production", () => {
  const stacks = appStacks({});
  const [, production] = stacks;
  const templates = stacks.map((stack) => Template.fromStack(stack).toJSON().Resources as Resources);
  const [stagingResources = {}, productionResources = {}] = templates;
  const counted = monthlyCounts(productionResources);
  const rows = tableAfter(stages, '## What production costs');
  const row = (label: RegExp) => {
    const found = rows.filter(([name = '']) => label.test(name));
    expect(found).toHaveLength(1);
    const [name = '', howMany = '', price = '', month = ''] = found[0] ?? [];
    return { name, counts: numbers(howMany), price, month: dollars(month) };
  };
  /** A row's price for one unit a month: by the hour or by the month. */
  const monthly = (price: string) => dollars(price) * (/an hour/.test(price) ? HOURS_A_MONTH : 1);

  it('is for the stack that the app deploys as production', () => {
    expect(production?.stackName).toBe('petstore-production');
  });

  it('knows every kind of resource the stacks create, as priced by the month or free at rest', () => {
    const types = new Set(templates.flatMap((resources) => Object.values(resources).map(({ Type }) => Type)));
    expect([...types].filter((type) => !FREE_AT_REST.has(type) && !PRICED.has(type))).toEqual([]);
    const resources = templates.flatMap((all) => Object.values(all));
    const tables = resources.filter(({ Type }) => Type === 'AWS::DynamoDB::Table');
    expect(tables.map(({ Properties }) => Properties?.BillingMode)).toEqual([
      'PAY_PER_REQUEST',
      'PAY_PER_REQUEST',
    ]);
    const aliases = resources.filter(({ Type }) => Type === 'AWS::Lambda::Alias');
    expect(aliases.filter(({ Properties }) => Properties?.ProvisionedConcurrencyConfig)).toEqual([]);
  });

  it('counts what the production template creates', () => {
    expect(row(/stage cache/).counts).toEqual([counted.caches, ...counted.cacheGb]);
    expect(row(/web ACL/).counts).toEqual([counted.webAcls]);
    expect(row(/WAF rules/).counts).toEqual([counted.rules]);
    expect(row(/KMS/).counts).toEqual([counted.keys]);
    expect(row(/Secrets Manager/).counts).toEqual([counted.secrets]);
    expect(row(/CloudWatch alarms/).counts).toEqual([counted.alarms, counted.alarmMetrics]);
    expect(row(/composite alarms/).counts).toEqual([counted.compositeAlarms]);
    expect(row(/dashboard/).counts).toEqual([counted.dashboards]);
    expect(row(/canary runs/).counts).toEqual(counted.canaryRuns);
  });

  it('multiplies and adds up', () => {
    const billed = {
      cache: counted.caches,
      alarms: counted.alarmMetrics,
      runs: counted.canaryRuns.reduce((sum, runs) => sum + runs, 0),
    };
    const lines = [
      [row(/stage cache/), billed.cache],
      [row(/web ACL/), counted.webAcls],
      [row(/WAF rules/), counted.rules],
      [row(/KMS/), counted.keys],
      [row(/Secrets Manager/), counted.secrets],
      [row(/CloudWatch alarms/), billed.alarms],
      [row(/composite alarms/), counted.compositeAlarms],
      [row(/dashboard/), counted.dashboards],
      [row(/canary runs/), billed.runs],
    ] as const;
    for (const [{ name, price, month }, units] of lines)
      expect({ name, month }).toEqual({ name, month: Number((units * monthly(price)).toFixed(2)) });
    const total = lines.reduce((sum, [{ month }]) => sum + month, 0);
    expect(row(/^all/).month).toBeCloseTo(total, 2);
  });

  it('quotes the cache and the web ACL at the prices the capacity model uses', () => {
    const [size = NaN] = counted.cacheGb;
    expect(dollars(row(/stage cache/).price)).toBe(AWS_PRICES.cacheCluster.perHour['0.5']);
    expect(size).toBe(0.5);
    expect(dollars(row(/web ACL/).price)).toBe(AWS_PRICES.waf.perWebAclMonth);
    expect(dollars(row(/WAF rules/).price)).toBe(AWS_PRICES.waf.perRuleMonth);
    expect(prose).toContain(`(${HOURS_A_MONTH} hours a month)`);
  });

  it('quotes the monitoring at the prices of bench/cost-basis.ts', () => {
    const { cloudWatch, secretsManager } = AWS_PRICES;
    expect(dollars(row(/CloudWatch alarms/).price)).toBe(cloudWatch.perAlarmMetricMonth);
    expect(dollars(row(/composite alarms/).price)).toBe(cloudWatch.perCompositeAlarmMonth);
    expect(dollars(row(/dashboard/).price)).toBe(cloudWatch.perDashboardMonth);
    expect(dollars(row(/canary runs/).price)).toBe(cloudWatch.perCanaryRun);
    expect(dollars(row(/Secrets Manager/).price)).toBe(secretsManager.perSecretMonth);
    const [runs = NaN] = counted.canaryRuns;
    expect(prose).toContain(
      `every ${(HOURS_A_MONTH * 60) / runs} minutes, ${runs / HOURS_A_MONTH} times an hour`,
    );
  });

  it('explains its counts as the template has them', () => {
    const [, managed = '', repeated = ''] =
      /rules are RequestsPerIp, the (\w+) managed rule groups and the (\w+) Repeated-<name> rules/.exec(
        prose,
      ) ?? [];
    expect([WORDS[managed], WORDS[repeated]]).toEqual([counted.managedRuleGroups, counted.repeatedRules]);
    expect(counted.rules).toBe(1 + counted.managedRuleGroups + counted.repeatedRules);
    const [, oneMetric, throttleMetrics, windows, availability, latency] =
      /(\d+) watch one metric each, and DynamoDbThrottles adds up the (\d+) throttle metrics\. The (\d+) windows of the SLOs read (\d+) metrics each for availability, (\d+) for latency/.exec(
        prose,
      ) ?? [];
    const { windowMetrics } = counted;
    expect([Number(oneMetric), counted.throttleMetrics, windowMetrics.length]).toEqual([
      counted.oneMetricAlarms,
      [Number(throttleMetrics)],
      Number(windows),
    ]);
    expect(counted.oneMetricAlarms + 1 + windowMetrics.length).toBe(counted.alarms);
    expect(new Set(windowMetrics)).toEqual(new Set([Number(availability), Number(latency)]));
    const [, asOne] = /counted as one, the line would\s+be \$(\d+\.\d+)/.exec(prose) ?? [];
    expect(Number(asOne)).toBeCloseTo(counted.alarms * dollars(row(/CloudWatch alarms/).price), 2);
  });

  it("prices the key's rotations on top of its month", () => {
    expect(counted.rotatedKeys).toBe(counted.keys);
    const [, added, second, third] =
      /two rotations adds \$([\d.]+) a month: \$([\d.]+) in its second year, \$([\d.]+) from its/.exec(
        prose,
      ) ?? [];
    const base = row(/KMS/).month;
    expect([Number(second), Number(third)]).toEqual([base + Number(added), base + 2 * Number(added)]);
  });

  it("prices staging's month from its own template", () => {
    const staging = monthlyCounts(stagingResources);
    expect([staging.caches, staging.webAcls]).toEqual([0, 0]);
    const [, written] =
      /Staging has no cache and no web ACL: its key, secrets, alarms, dashboard and probe, \$([\d.]+) a month/.exec(
        prose,
      ) ?? [];
    const month =
      staging.keys * monthly(row(/KMS/).price) +
      staging.secrets * monthly(row(/Secrets Manager/).price) +
      staging.alarmMetrics * monthly(row(/CloudWatch alarms/).price) +
      staging.compositeAlarms * monthly(row(/composite alarms/).price) +
      staging.dashboards * monthly(row(/dashboard/).price) +
      staging.canaryRuns.reduce((sum, runs) => sum + runs, 0) * dollars(row(/canary runs/).price);
    expect(Number(written)).toBeCloseTo(month, 2);
  });

  it('quotes the per-request prices the cost models use', () => {
    const perUse = tableAfter(stages, 'Per request, or per use:');
    const price = (label: string) => dollars(perUse.find(([name]) => name === label)?.[1] ?? '');
    const [firstTier] = AWS_PRICES.apiGateway.tiers;
    expect({
      'API Gateway REST API requests': price('API Gateway REST API requests'),
      'AWS WAF requests': price('AWS WAF requests'),
      'Lambda requests': price('Lambda requests'),
      'Lambda duration, arm64': price('Lambda duration, arm64'),
      'DynamoDB on-demand reads': price('DynamoDB on-demand reads'),
      'DynamoDB on-demand writes': price('DynamoDB on-demand writes'),
      'X-Ray traces recorded': price('X-Ray traces recorded'),
      'CloudWatch Logs ingestion': price('CloudWatch Logs ingestion'),
      'CloudWatch Logs Insights queries': price('CloudWatch Logs Insights queries'),
    }).toEqual({
      'API Gateway REST API requests': firstTier.perMillion,
      'AWS WAF requests': AWS_PRICES.waf.perMillionRequests,
      'Lambda requests': AWS_PRICES.lambda.perMillionRequests,
      'Lambda duration, arm64': AWS_PRICES.lambda.arm64PerGbSecond,
      'DynamoDB on-demand reads': AWS_PRICES.dynamoDb.perMillionReadUnits,
      'DynamoDB on-demand writes': AWS_PRICES.dynamoDb.perMillionWriteUnits,
      'X-Ray traces recorded': AWS_PRICES.xRay.perMillionTraces,
      'CloudWatch Logs ingestion': AWS_PRICES.logs.perGbIngested,
      'CloudWatch Logs Insights queries': AWS_PRICES.logs.perGbScanned,
    });
    expect(perUse.find(([name]) => name === 'API Gateway REST API requests')?.[1]).toContain(
      `first ${firstTier.upTo / 1e6} million a month`,
    );
  });
});
