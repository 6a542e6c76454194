// The outputs of a deployed stage, from the file that `npm run deploy:<stage>` writes (`cdk deploy
// --outputs-file cdk-outputs.<stage>.json`, run in the project root): what a `--stage` option stands for,
// such as the table, the usage plan, the region or the base URL. Every failure is one line, for the
// caller to print with its own prefix.
import { existsSync, readFileSync } from 'node:fs';

/** The stages that `npm run deploy:<stage>` deploys (lib/stage-settings.ts names the same two). */
const STAGES = ['staging', 'production'] as const;

type DeployedStage = (typeof STAGES)[number];

/** A failure whose message is the whole story, on one line. */
export class StageOutputsError extends Error {
  override name = 'StageOutputsError';
}

const isDeployedStage = (stage: string): stage is DeployedStage =>
  (STAGES as readonly string[]).includes(stage);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The outputs named `names` of `stage`, from its outputs file: the stack's `CfnOutput`s by their
 * ids. An output is found by the start of its key, since one declared inside a construct gets a
 * hash after its id (`TableName5A1B2C`); the file of `cdk deploy "<Stage>/*"` holds that stage's
 * stacks only, so every stack in it is searched.
 */
export function readStageOutputs<Name extends string>(
  stage: string,
  names: readonly Name[],
): Record<Name, string> {
  if (!isDeployedStage(stage))
    throw new StageOutputsError(`--stage must be ${STAGES.join(' or ')}, not "${stage}".`);
  const outputsFile = `cdk-outputs.${stage}.json`;
  if (!existsSync(outputsFile))
    throw new StageOutputsError(`${outputsFile} not found: deploy first (npm run deploy:${stage}).`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(outputsFile, 'utf8'));
  } catch {
    parsed = undefined;
  }
  // { "<stack name>": { "<output id>": "<value>" } }, as cdk deploy writes it.
  if (!isRecord(parsed))
    throw new StageOutputsError(
      `${outputsFile} is not the outputs of cdk deploy: deploy again (npm run deploy:${stage}).`,
    );
  const stacks = Object.values(parsed).filter(isRecord);
  const output = (name: Name) => {
    const found = stacks
      .flatMap((outputs) => Object.entries(outputs))
      .find(([key, value]) => key.startsWith(name) && typeof value === 'string');
    if (!found)
      throw new StageOutputsError(
        `No ${name} output in ${outputsFile}: deploy again (npm run deploy:${stage}) to write this version's outputs.`,
      );
    return found[1] as string;
  };
  return Object.fromEntries(names.map((name) => [name, output(name)])) as Record<Name, string>;
}
