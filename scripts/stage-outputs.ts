// The outputs of a deployed stage, what a `--stage` option stands for (the table, the usage plan, the
// region, the base URL...): from the file `npm run deploy:<stage>` writes in the project root when there
// is one, else from the stack in CloudFormation, since the workflow's deployments leave no file here.
// Every failure is one line, for the caller to print with its own prefix.
import { existsSync, readFileSync } from 'node:fs';

/** The stages that `npm run deploy:<stage>` deploys (lib/stage-settings.ts names the same two). */
const STAGES = ['staging', 'production'] as const;

type DeployedStage = (typeof STAGES)[number];

/** A failure whose message is the whole story, on one line. */
export class StageOutputsError extends Error {
  override name = 'StageOutputsError';
}

/** The outputs asked for, and where they were read: the outputs file, or the stack and its region. */
export type StageOutputs<Name extends string> = { outputs: Record<Name, string>; source: string };

/** Output keys and values, from whichever source: a value that is not a string is no output. */
type OutputEntries = (readonly [key: string, value: unknown])[];

const isDeployedStage = (stage: string): stage is DeployedStage =>
  (STAGES as readonly string[]).includes(stage);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const outputsFileOf = (stage: DeployedStage) => `cdk-outputs.${stage}.json`;

/**
 * The file of `cdk deploy "<Stage>/*" --outputs-file`: `{ "<stack name>": { "<output id>": "<value>" } }`,
 * holding that stage's stacks only, so every stack in it is searched.
 */
function readOutputsFile(stage: DeployedStage): OutputEntries {
  const outputsFile = outputsFileOf(stage);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(outputsFile, 'utf8'));
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed))
    throw new StageOutputsError(
      `${outputsFile} is not the outputs of cdk deploy: deploy again (npm run deploy:${stage}).`,
    );
  return Object.values(parsed)
    .filter(isRecord)
    .flatMap((outputs) => Object.entries(outputs));
}

/**
 * The outputs of stack `petstore-<stage>` (lib/petstore-stage.ts names it), asked of CloudFormation
 * in the stage's region as cdk.json sets it, with the SDK's default credentials (AWS_PROFILE).
 * Its modules load here only: the region is read by the CDK app's own code, which loads the CDK.
 */
async function describeStageStack(stage: DeployedStage): Promise<{ entries: OutputEntries; source: string }> {
  const [{ stageRegions }, { ContextError }, { CloudFormationClient, DescribeStacksCommand }] =
    await Promise.all([
      import('#scripts/stage-region.ts'),
      import('#lib/app-context.ts'),
      import('@aws-sdk/client-cloudformation'),
    ]);
  let region: string;
  try {
    region = stageRegions([stage])[stage];
  } catch (error) {
    throw error instanceof ContextError ? new StageOutputsError(error.message) : error;
  }
  const stackName = `petstore-${stage}`;
  const client = new CloudFormationClient({ region });
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const entries = (Stacks[0]?.Outputs ?? []).map(
      ({ OutputKey = '', OutputValue }) => [OutputKey, OutputValue] as const,
    );
    return { entries, source: `stack ${stackName} (${region})` };
  } catch (error) {
    const { name, message } = error as Error;
    const firstLine = message.split('\n')[0];
    // A plain Error is the network's, said by its message; AWS's are named (ValidationError, AccessDenied).
    const reason = name === 'Error' ? firstLine : `${name}: ${firstLine}`;
    throw new StageOutputsError(
      `${outputsFileOf(stage)} not found, and CloudFormation could not describe stack ${stackName} in ${region} ` +
        `(${reason}): deploy first (npm run deploy:${stage}), or export an AWS_PROFILE that can read the stack.`,
    );
  } finally {
    client.destroy();
  }
}

/** Each stage's stack described once a process: a command that reads two sets of outputs asks once. */
const described = new Map<DeployedStage, ReturnType<typeof describeStageStack>>();
function stackOutputs(stage: DeployedStage) {
  let outputs = described.get(stage);
  if (!outputs) described.set(stage, (outputs = describeStageStack(stage)));
  return outputs;
}

/**
 * The outputs named `names` of `stage`: the stack's `CfnOutput`s by their ids, from its outputs file
 * if there is one, else from its stack. An output is found by the start of its key, since one
 * declared inside a construct gets a hash after its id (`TableName5A1B2C`).
 */
export async function readStageOutputs<Name extends string>(
  stage: string,
  names: readonly Name[],
): Promise<StageOutputs<Name>> {
  if (!isDeployedStage(stage))
    throw new StageOutputsError(`--stage must be ${STAGES.join(' or ')}, not "${stage}".`);
  const { entries, source } = existsSync(outputsFileOf(stage))
    ? { entries: readOutputsFile(stage), source: outputsFileOf(stage) }
    : await stackOutputs(stage);
  const output = (name: Name) => {
    const found = entries.find(([key, value]) => key.startsWith(name) && typeof value === 'string');
    if (!found)
      throw new StageOutputsError(
        `No ${name} output in ${source}: deploy again (npm run deploy:${stage}) to write this version's outputs.`,
      );
    return found[1] as string;
  };
  const outputs = Object.fromEntries(names.map((name) => [name, output(name)])) as Record<Name, string>;
  return { outputs, source };
}
