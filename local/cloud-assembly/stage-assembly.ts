// Finds the cloud assembly of one stage: `cdk.out/assembly-<Stage>/` and its stack template,
// synthesized first when cdk.out is missing, older than any source it is built from, or written
// without bundles (so the stage run always serves what `cdk deploy` would deploy now), or taken as
// given (`--assembly <dir>`). One synthesis at a time: a second process waits and reuses it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readTemplate } from '#local/cloud-assembly/template.ts';

/** What a synthesis reads: a change to any of them makes cdk.out stale. */
const SYNTH_INPUTS = [
  'bin',
  'lib',
  'functions',
  'shared',
  'client/src',
  'package-lock.json',
  'cdk.json',
  'tsconfig.json',
];

/** A stage's nested assembly, its stack's template, and the name CloudFormation gives that stack. */
export type StageAssembly = { assemblyDir: string; templateFile: string; stackName: string };

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

type Manifest = {
  artifacts?: Record<
    string,
    { type: string; properties?: { templateFile?: string; directoryName?: string; stackName?: string } }
  >;
};
const artifactsOf = (dir: string) =>
  existsSync(join(dir, 'manifest.json'))
    ? Object.values(
        (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest).artifacts ?? {},
      )
    : [];

const nestedAssemblies = (dir: string) =>
  artifactsOf(dir)
    .filter((artifact) => artifact.type === 'cdk:cloud-assembly')
    .map((artifact) => artifact.properties?.directoryName ?? '');

/** The stage names of an app's nested assemblies: `assembly-Staging` is staging. */
const stagesIn = (outDir: string) =>
  nestedAssemblies(outDir).map((name) => name.replace(/^assembly-/, '').toLowerCase());

/**
 * The stage's nested assembly (`assembly-Staging`) with its stack's template; or the directory itself
 * when it is one stage's assembly, with no stage inside. An app's top level holds the deploy roles'
 * stack, which is no stage.
 */
function findStage(dir: string, stage: string): StageAssembly | undefined {
  const stages = nestedAssemblies(dir);
  const nested = stages.find((name) => name.toLowerCase() === `assembly-${stage.toLowerCase()}`);
  if (stages.length > 0 && !nested) return undefined;
  const assemblyDir = nested ? join(dir, nested) : dir;
  const stack = artifactsOf(assemblyDir).find((artifact) => artifact.type === 'aws:cloudformation:stack');
  const templateFile = stack?.properties?.templateFile;
  if (!templateFile) return undefined;
  const stackName = stack.properties?.stackName ?? templateFile.replace(/\.template\.json$/, '');
  return { assemblyDir, templateFile: join(assemblyDir, templateFile), stackName };
}

/**
 * True when a function's asset is not a bundle of cdk.out: `cdk ls`, `cdk destroy` and the
 * other commands that deploy nothing synthesize without bundling and point the template's asset
 * paths at the project.
 */
export function unbundled(
  outDir: string,
  { assemblyDir, templateFile }: Pick<StageAssembly, 'assemblyDir' | 'templateFile'>,
): boolean {
  return Object.values(readTemplate(templateFile).Resources)
    .filter(({ Type }) => Type === 'AWS::Lambda::Function')
    .some(({ Metadata }) => {
      const assetPath = Metadata?.['aws:asset:path'];
      if (typeof assetPath !== 'string') return true;
      const fromOutDir = relative(outDir, resolve(assemblyDir, assetPath));
      return isAbsolute(fromOutDir) || fromOutDir.startsWith('..');
    });
}

/** A synthesis that holds the lock longer than this has hung: the lock is taken over. */
const SYNTH_LOCK_STALE_MS = 10 * 60_000;
const SYNTH_LOCK_POLL_MS = 100;

/** True while the process that took the lock lives (a killed one leaves the lock behind). */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return true; // Taken a moment ago: its holder has not written its pid yet.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `work` while holding the project's synthesis lock, a directory (made atomically) that names
 * its holder, so that two servers or test files starting at once do not write one cdk.out together.
 */
function withSynthLock<T>(projectRoot: string, log: (line: string) => void, work: () => T): T {
  const lock = join(projectRoot, '.petstore', 'synth.lock');
  mkdirSync(dirname(lock), { recursive: true });
  let waiting = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const heldSince = existsSync(lock) ? statSync(lock).mtimeMs : Date.now();
      if (!holderAlive(lock) || Date.now() - heldSince > SYNTH_LOCK_STALE_MS) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!waiting) log(`Waiting for another process's synthesis (${relative(projectRoot, lock)})...`);
      waiting = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SYNTH_LOCK_POLL_MS);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The stage in the project's cdk.out, synthesized when stale (`log` hears why). Throws with one
 * line when the synthesis fails or the app has no such stage.
 */
export function projectStageAssembly(
  projectRoot: string,
  stage: string,
  log: (line: string) => void,
): StageAssembly {
  return withSynthLock(projectRoot, log, () => freshStageAssembly(projectRoot, stage, log));
}

function freshStageAssembly(projectRoot: string, stage: string, log: (line: string) => void) {
  const outDir = join(projectRoot, 'cdk.out');
  const manifest = join(outDir, 'manifest.json');
  const newestInput = Math.max(...SYNTH_INPUTS.map((input) => newestChange(join(projectRoot, input))));
  const fresh = existsSync(manifest) && statSync(manifest).mtimeMs >= newestInput;
  const current = fresh && findStage(outDir, stage);
  // A fresh cdk.out without the stage has no such stage: a synthesis would not add it.
  if (!fresh || (current && unbundled(outDir, current))) {
    log('Synthesizing the app (cdk.out is missing, older than its sources, or without bundles)...');
    const synth = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/aws-cdk/bin/cdk'), 'synth', '--quiet'],
      {
        cwd: projectRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      },
    );
    if (synth.status !== 0) {
      const reason = synth.stderr.split('\n').find((line) => line.trim() && !line.includes('nodedir'));
      throw new Error(`cdk synth failed: ${reason ?? `exit code ${synth.status}`}`);
    }
  }
  return findStage(outDir, stage) ?? noSuchStage(`the app has no stage "${stage}"`, outDir);
}

function noSuchStage(what: string, dir: string): never {
  const stages = stagesIn(dir);
  throw new Error(`${what}: ${stages.length > 0 ? `choose one of ${stages.join(', ')}` : 'it holds none'}.`);
}

/** A given cloud assembly (a copy of cdk.out, or one stage's directory of it), served as it is. */
export function givenStageAssembly(dir: string, stage: string): StageAssembly {
  if (!existsSync(join(dir, 'manifest.json')))
    throw new Error(`${dir} is not a cloud assembly (no manifest.json).`);
  return findStage(dir, stage) ?? noSuchStage(`${dir} holds no stage "${stage}"`, dir);
}
