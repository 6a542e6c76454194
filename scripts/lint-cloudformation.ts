// `npm run lint:cloudformation`: the AWS CloudFormation Linter (cfn-lint, a Python tool) over every
// template the app synthesizes (both stages as configured and with a custom domain each, and the deploy
// role's stack) for the stages' regions: offline, in place of the checks a deployment's start makes. Any
// error fails it; warnings are listed, and those this project keeps are left out in .cfnlintrc.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageRegions } from '#scripts/stage-region.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const INSTALL = 'pip install cfn-lint';

/** A custom domain for each stage, so that the domain's resources are linted too. */
const customDomains = (regions: Record<string, string>) =>
  Object.entries(regions).flatMap(([stage, region]) => [
    `${stage}:domainName=${stage}.api.example.com`,
    `${stage}:certificateArn=arn:aws:acm:${region}:123456789012:certificate/00000000-0000-4000-8000-000000000000`,
  ]);

type Finding = {
  Filename: string;
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
  Location: { Start: { LineNumber: number } };
};

const fail = (message: string): never => {
  console.error(`petstore: ${message}`);
  process.exit(1);
};

function requireCfnLint(): string {
  const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  if (version.error)
    return fail(
      `cfn-lint is not on the PATH: install the AWS CloudFormation Linter (${INSTALL}, Python 3.9 or later), then run npm run lint:cloudformation again.`,
    );
  return version.stdout.trim();
}

/** The app synthesized by the cdk CLI into a new directory, with these `-c` values; its templates. */
function synthesize(context: string[]): { dir: string; templates: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cfn-lint-'));
  const cdk = join(PROJECT_ROOT, 'node_modules/aws-cdk/bin/cdk');
  const synth = spawnSync(
    process.execPath,
    [cdk, 'synth', '--quiet', '--output', dir, ...context.flatMap((value) => ['-c', value])],
    { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (synth.status !== 0) {
    const reason = synth.stderr.split('\n').find((line) => line.trim() && !line.includes('nodedir'));
    return fail(`cdk synth failed: ${reason ?? `exit code ${synth.status}`}`);
  }
  const templatesIn = (path: string): string[] =>
    readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
      if (entry.isDirectory() && entry.name.startsWith('assembly-'))
        return templatesIn(join(path, entry.name));
      return entry.name.endsWith('.template.json') ? [join(path, entry.name)] : [];
    });
  return { dir, templates: templatesIn(dir) };
}

/** cfn-lint's findings on these templates; a run that produced none it could report stops here. */
function lint(templates: string[], regions: string[]): Finding[] {
  const run = spawnSync('cfn-lint', ['--format', 'json', '--regions', ...regions, '--', ...templates], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  try {
    return JSON.parse(run.stdout) as Finding[];
  } catch {
    const reason = `${run.stderr}\n${run.stdout}`.split('\n').find((line) => line.trim());
    return fail(`cfn-lint failed: ${reason ?? `exit code ${run.status}`}`);
  }
}

function main() {
  const version = requireCfnLint();
  const regionsByStage = stageRegions();
  const regions = [...new Set(Object.values(regionsByStage))];
  const variants = [
    { name: 'as configured', context: [] },
    { name: 'with custom domains', context: customDomains(regionsByStage) },
  ];
  let errors = 0;
  for (const variant of variants) {
    const { dir, templates } = synthesize(variant.context);
    try {
      const findings = lint(templates, regions);
      console.log(
        `${version} on ${templates.length} templates ${variant.name} (${regions.join(', ')}): ${findings.length} findings`,
      );
      for (const { Filename, Level, Message, Rule, Location } of findings) {
        console.log(
          `  ${Level} ${Rule.Id} ${relative(dir, Filename)}:${Location.Start.LineNumber}: ${Message}`,
        );
        if (Level === 'Error') errors += 1;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (errors > 0) fail(`cfn-lint found ${errors} errors: CloudFormation would refuse these templates.`);
}

main();
