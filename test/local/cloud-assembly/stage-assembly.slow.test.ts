// Which stage's cloud assembly is served, and when it is synthesized again first: one whose functions
// point at bundles inside cdk.out is served; one that `cdk ls` or `cdk destroy` wrote, whose asset paths
// point at the project itself (no bundles), is not. A stage the app lacks is named with those it has.
// The lock keeps one synthesis at a time and outlives no process that took it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { givenStageAssembly, projectStageAssembly, unbundled } from '#local/cloud-assembly/stage-assembly.ts';
import { killScripts, runScript } from '#test/support/process.ts';
import { SYNTH_TIMEOUT_MS, projectAssembly } from '#test/support/project-assembly.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

afterAll(killScripts);

const STAGE_ASSEMBLY_URL = pathToFileURL(join(REPO_ROOT, 'local/cloud-assembly/stage-assembly.ts')).href;

/** A cdk.out with one stage whose one function has this asset path. */
function assemblyWith(assetPath: string | undefined) {
  const outDir = mkdtempSync(join(tmpdir(), 'petstore-assembly-'));
  const assemblyDir = join(outDir, 'assembly-Staging');
  mkdirSync(assemblyDir);
  const templateFile = join(assemblyDir, 'Staging.template.json');
  const Metadata = assetPath === undefined ? {} : { 'aws:asset:path': assetPath };
  writeFileSync(
    templateFile,
    JSON.stringify({
      Resources: { Fn: { Type: 'AWS::Lambda::Function', Metadata }, Table: { Type: 'AWS::DynamoDB::Table' } },
    }),
  );
  return { outDir, assembly: { assemblyDir, templateFile } };
}

describe('a stage assembly', () => {
  it('is bundled when each function points at an asset directory of cdk.out', () => {
    const { outDir, assembly } = assemblyWith('../asset.0a9b08fbfcea9f2f');
    expect(unbundled(outDir, assembly)).toBe(false);
  });

  it.each([
    ['the project directory, as cdk ls writes it', '/work/project'],
    ['a path out of cdk.out', '../../functions'],
    ['no asset path at all', undefined],
  ])('is unbundled when a function points at %s', (_case, assetPath) => {
    const { outDir, assembly } = assemblyWith(assetPath);
    expect(unbundled(outDir, assembly)).toBe(true);
  });
});

/** A cdk.out as the app writes it: the deploy roles' stack at the top, each stage in its own assembly. */
function appAssembly() {
  const projectRoot = mkdtempSync(join(tmpdir(), 'petstore-app-'));
  const outDir = join(projectRoot, 'cdk.out');
  mkdirSync(outDir);
  const stack = (templateFile: string) => ({
    type: 'aws:cloudformation:stack',
    properties: { templateFile },
  });
  const artifacts: Record<string, unknown> = {
    PetstoreDeployAccess: stack('PetstoreDeployAccess.template.json'),
  };
  writeFileSync(join(outDir, 'PetstoreDeployAccess.template.json'), '{"Resources":{}}');
  for (const stage of ['Staging', 'Production']) {
    const directoryName = `assembly-${stage}`;
    artifacts[stage] = { type: 'cdk:cloud-assembly', properties: { directoryName } };
    mkdirSync(join(outDir, directoryName));
    const template = `${stage}.template.json`;
    writeFileSync(join(outDir, directoryName, template), '{"Resources":{}}');
    const manifest = { artifacts: { [stage]: stack(template) } };
    writeFileSync(join(outDir, directoryName, 'manifest.json'), JSON.stringify(manifest));
  }
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify({ artifacts }));
  return { projectRoot, outDir };
}

describe('the synthesis lock', () => {
  it('is taken over when the process that took it is gone, and let go after', () => {
    const { projectRoot } = appAssembly();
    const lock = join(projectRoot, '.petstore', 'synth.lock');
    mkdirSync(lock, { recursive: true });
    // The pid of a process that has exited: a synthesis killed while it held the lock.
    writeFileSync(join(lock, 'pid'), String(spawnSync(process.execPath, ['--version']).pid));
    expect(projectStageAssembly(projectRoot, 'staging', () => undefined).stackName).toBe('Staging');
    expect(existsSync(lock)).toBe(false);
  });

  it('is waited for while the process that took it lives', () => {
    const { projectRoot } = appAssembly();
    const lock = join(projectRoot, '.petstore', 'synth.lock');
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'pid'), String(process.pid));
    // Another process asks for the stage: it is still waiting when stopped a second later.
    const asks = `import { projectStageAssembly } from ${JSON.stringify(STAGE_ASSEMBLY_URL)};
      projectStageAssembly(${JSON.stringify(projectRoot)}, 'staging', console.log);`;
    const waiter = spawnSync(process.execPath, ['--input-type=module', '-e', asks], {
      timeout: 1_000,
      encoding: 'utf8',
    });
    expect({ signal: waiter.signal, said: waiter.stdout }).toEqual({
      signal: 'SIGTERM',
      said: `Waiting for another process's synthesis (${join('.petstore', 'synth.lock')})...\n`,
    });
    expect(existsSync(join(lock, 'pid'))).toBe(true);
  });
});

describe('a stage the app lacks', () => {
  it('is refused naming the stages there are, without synthesizing, never the top-level stack', () => {
    const { projectRoot, outDir } = appAssembly();
    const heard: string[] = [];
    expect(() => projectStageAssembly(projectRoot, 'nosuchstage', (line) => heard.push(line))).toThrow(
      'the app has no stage "nosuchstage": choose one of staging, production.',
    );
    expect(heard).toEqual([]);
    expect(() => givenStageAssembly(outDir, 'nosuchstage')).toThrow(
      `${outDir} holds no stage "nosuchstage": choose one of staging, production.`,
    );
    expect(givenStageAssembly(outDir, 'Production').templateFile).toBe(
      join(outDir, 'assembly-Production', 'Production.template.json'),
    );
  });

  it(
    'stops npm run start:stage in one line',
    async () => {
      projectAssembly('staging');
      const run = runScript('local/start-stage.ts', ['nosuchstage'], { PORT: '0' });
      expect(await run.exited).toBe(1);
      expect(run.output().trim()).toBe(
        'petstore: the app has no stage "nosuchstage": choose one of staging, production.',
      );
    },
    SYNTH_TIMEOUT_MS,
  );
});
