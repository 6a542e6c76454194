// The app as `cdk synth` writes it to the project's cdk.out, with the lookups the stack's checks share.
// The first check file to ask synthesizes cdk.out when stale and the others wait for it and read it
// (test/support/project-assembly.ts), so that each folder's checks run by their path and a run still
// synthesizes cdk.out once at most.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName, StageSettings } from '#lib/stage-settings.ts';
import { defined } from '#test/support/defined.ts';
import { givenStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import type { StageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import { PROJECT_CDK_OUT, projectAssembly } from '#test/support/project-assembly.ts';

export type Properties = Record<string, unknown>;
type Resource = {
  Type: string;
  Properties: Properties;
  Metadata?: Record<string, string>;
} & Properties;

type Artifact = { type: string; environment?: string; properties?: { templateFile?: string } };
/** What the synthesis recorded of a construct: an acknowledged rule, a warning, an error. */
type MetadataEntry = { type: string; data: unknown };

/** A stack of the assembly: its CloudFormation name, its region and what it recorded. */
export type SynthesizedStack = {
  artifactId: string;
  stackName: string;
  region: string;
  assemblyDir: string;
  template: Template;
  /** Every metadata entry of the stack's constructs, by construct path: read when asked, it is large. */
  metadata: () => Record<string, MetadataEntry[]>;
};

export type SynthesizedStage = SynthesizedStack & {
  name: StageName;
  settings: StageSettings;
  /** What the stage's removal policy makes of its table, secret, log groups and alarm key. */
  deletionPolicy: 'Retain' | 'Delete';
  /** The resource with this logical id; fails when there is none. */
  resource: (logicalId: string) => Resource;
  /** The logical ids and resources of this type. */
  all: (type: string) => [logicalId: string, resource: Resource][];
  /** The one resource of this type; fails when there are none or several. */
  only: (type: string) => [logicalId: string, resource: Resource];
};

/** The one element of `values`; fails when there are none or several. */
function only<T>(values: T[], what: string): T {
  if (values.length !== 1) throw new Error(`Expected one ${what}, found ${values.length}`);
  return defined(values[0], what);
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** The stacks of one assembly directory (a stage's, or the app's top level). */
function stacksIn(assemblyDir: string): SynthesizedStack[] {
  const { artifacts } = readJson(join(assemblyDir, 'manifest.json')) as {
    artifacts: Record<string, Artifact>;
  };
  return Object.entries(artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([artifactId, { environment = '', properties }]) => {
      const templateFile = defined(properties?.templateFile, `the template of ${artifactId}`);
      const { stackName = artifactId } = properties as { stackName?: string };
      return {
        artifactId,
        stackName,
        // aws://<account>/<region>, as the CDK CLI deploys it.
        region: environment.replace(/^aws:\/\/[^/]+\//, ''),
        assemblyDir,
        template: Template.fromJSON(readJson(join(assemblyDir, templateFile)) as Properties),
        metadata: () =>
          readJson(join(assemblyDir, `${artifactId}.metadata.json`)) as Record<string, MetadataEntry[]>,
      };
    });
}

function synthesizedStage(name: StageName, { assemblyDir, stackName }: StageAssembly): SynthesizedStage {
  const stack = defined(
    stacksIn(assemblyDir).find((found) => found.stackName === stackName),
    `the ${name} stack`,
  );
  const resources = stack.template.toJSON().Resources as Record<string, Resource>;
  const all = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  return {
    ...stack,
    name,
    settings: STAGE_SETTINGS[name],
    deletionPolicy: STAGE_SETTINGS[name].removalPolicy === 'retain' ? 'Retain' : 'Delete',
    resource: (logicalId) => defined(resources[logicalId], `resource ${logicalId}`),
    all,
    only: (type) => {
      const [found, ...others] = all(type);
      if (!found || others.length > 0) throw new Error(`Expected one ${type}, found ${all(type).length}`);
      return found;
    },
  };
}

export const synthesized = {
  // cdk.out is brought up to date once, with the first stage; the second is read as it then stands.
  staging: synthesizedStage('staging', projectAssembly('staging')),
  production: synthesizedStage('production', givenStageAssembly(PROJECT_CDK_OUT, 'production')),
  // The stages share an account here: the app's top level holds one stack with both deploy roles.
  deployAccess: only(stacksIn(PROJECT_CDK_OUT), 'deploy access stack'),
};
