// The project's cdk.out for the tests that read it or serve a stage from it, synthesized by the first
// to ask when stale and reused by the rest of the run (stage-assembly.ts holds one synthesis at a time).
import { join } from 'node:path';
import { projectStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import type { StageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import { REPO_ROOT } from '#test/support/repository.ts';

export const PROJECT_CDK_OUT = join(REPO_ROOT, 'cdk.out');
/** For a beforeAll that may synthesize, or wait for another file's synthesis: bundling included. */
export const SYNTH_TIMEOUT_MS = 180_000;

/** One stage's assembly in the project's cdk.out, up to date with the sources. */
export const projectAssembly = (stage: string): StageAssembly =>
  projectStageAssembly(REPO_ROOT, stage, () => undefined);
