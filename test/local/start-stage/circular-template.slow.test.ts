// The stage run accepts only what CloudFormation accepts: a copy of the synthesized staging assembly
// with the circle that once made every deployment fail put back (a method's latency alarm naming stage v1
// by reference: alarm, deployment group, alias UpdatePolicy, methods, deployment, stage) is refused
// in one line, before anything starts.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';
import { killScripts, runScript } from '#test/support/process.ts';
import { putStageRefBackOnApiAlarm } from '#test/support/rollout-circle.ts';
import { PROJECT_CDK_OUT, projectAssembly } from '#test/support/project-assembly.ts';

const copyDir = mkdtempSync(join(tmpdir(), 'petstore-circular-'));

afterAll(() => {
  killScripts();
  rmSync(copyDir, { recursive: true, force: true });
});

/** The staging template of a copy of cdk.out, with the 5xx alarm's Stage dimension a Ref again. */
function assemblyWithTheCircle(): string {
  const { assemblyDir } = projectAssembly('staging');
  cpSync(join(PROJECT_CDK_OUT, 'manifest.json'), join(copyDir, 'manifest.json'));
  cpSync(assemblyDir, join(copyDir, 'assembly-Staging'), { recursive: true });
  const stageDir = join(copyDir, 'assembly-Staging');
  const templateFile = join(
    stageDir,
    readdirSync(stageDir).find((name) => name.endsWith('.template.json')) ?? '',
  );
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as CloudTemplate;
  putStageRefBackOnApiAlarm(template);
  writeFileSync(templateFile, JSON.stringify(template));
  return copyDir;
}

it('refuses a template with a circular dependency in one line naming the resources', async () => {
  const run = runScript('local/start-stage.ts', ['staging', '--assembly', assemblyWithTheCircle()], {
    PORT: '0',
  });
  expect(await run.exited).toBe(1);
  const lines = run.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^petstore: could not start: CloudFormation would reject this template: circular dependency between (\w+, )+\w+$/,
  );
  for (const resource of [
    'AlarmslistPetsP99Latency',
    'ApiDeploymentStagev1',
    'ListPetsLive',
    'RolloutlistPets',
  ])
    expect(lines[0]).toContain(resource);
});
