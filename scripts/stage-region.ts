// `npm run stage-region -- <staging|production>`: prints the AWS region of a stage, `<stage>:region` in
// cdk.json's context, read as the CDK app reads it (lib/app-context.ts), so that AWS CLI commands outside
// the app act in the stage's region too. A missing or bad value is one line.
import { readFileSync } from 'node:fs';
import { ContextError, stageRegion } from '#lib/app-context.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName } from '#lib/stage-settings.ts';

const CDK_JSON = new URL('../cdk.json', import.meta.url);

const isStageName = (name: string): name is StageName => Object.hasOwn(STAGE_SETTINGS, name);

/** The stages' names, each with its region as cdk.json sets it. */
export function stageRegions(stages = Object.keys(STAGE_SETTINGS) as StageName[]): Record<StageName, string> {
  const { context = {} } = JSON.parse(readFileSync(CDK_JSON, 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return Object.fromEntries(
    stages.map((stage) => [stage, stageRegion((key) => context[key], stage)]),
  ) as Record<StageName, string>;
}

function main([stage, ...extra]: string[]) {
  const usage = `usage: npm run stage-region -- <${Object.keys(STAGE_SETTINGS).join('|')}>`;
  if (stage === undefined || extra.length > 0 || !isStageName(stage)) {
    console.error(usage);
    return 2;
  }
  try {
    console.log(stageRegions([stage])[stage]);
    return 0;
  } catch (error) {
    if (!(error instanceof ContextError)) throw error;
    console.error(`petstore: ${error.message}`);
    return 1;
  }
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
