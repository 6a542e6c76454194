// Which stage's cloud assembly is served, and when it is synthesized again first: one whose functions
// point at bundles inside cdk.out is served; one that `cdk ls` or `cdk destroy` wrote, whose asset paths
// point at the project itself (no bundles), is not. A stage the app lacks is named with those it has.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { givenStageAssembly, projectStageAssembly, unbundled } from '#local/cloud-assembly/stage-assembly.ts';
import { killScripts, runScript } from '#test/support/process.ts';

afterAll(killScripts);

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

  it('stops npm run start:stage in one line', async () => {
    const run = runScript('local/start-stage.ts', ['nosuchstage'], { PORT: '0' });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe(
      'petstore: the app has no stage "nosuchstage": choose one of staging, production.',
    );
  });
});
