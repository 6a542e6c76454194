// Synthesizes the app once, offline and without bundling (the bundles are the project cdk.out's),
// into a temporary directory, and gives each stage's template with the lookups the checks share. The
// checks (*.checks.ts) run in one test file, stack.test.ts, so that this one synthesis serves them all.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName, StageSettings } from '#lib/stage-settings.ts';
import { readRepoJson } from '#test/support/repository.ts';

export type Properties = Record<string, unknown>;
type Resource = {
  Type: string;
  Properties: Properties;
  Metadata?: Record<string, string>;
} & Properties;

export type SynthesizedStage = {
  name: StageName;
  settings: StageSettings;
  /** What the stage's removal policy makes of its table, secret, log groups and alarm key. */
  deletionPolicy: 'Retain' | 'Delete';
  template: Template;
  /** The resource with this logical id; fails when there is none. */
  resource: (logicalId: string) => Resource;
  /** The logical ids and resources of this type. */
  all: (type: string) => [logicalId: string, resource: Resource][];
  /** The one resource of this type; fails when there are none or several. */
  only: (type: string) => [logicalId: string, resource: Resource];
};

/** The value, or a failure naming what is missing (the lint forbids non-null assertions). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Missing: ${what}`);
  return value;
}

/** The one element of `values`; fails when there are none or several. */
function only<T>(values: T[], what: string): T {
  if (values.length !== 1) throw new Error(`Expected one ${what}, found ${values.length}`);
  return defined(values[0], what);
}

/** An app in a temporary directory with the feature flags of cdk.json, as `cdk synth` applies them. */
export const appWithFlags = (context: Record<string, unknown>) =>
  new App({
    outdir: mkdtempSync(join(tmpdir(), 'petstore-cdk-')),
    context: { ...(readRepoJson('cdk.json') as { context: object }).context, ...context },
  });

function synthesizeApp() {
  // What the cdk CLI sets: asset paths in the template's metadata, which sam local reads too. No
  // bundling: the checks of the bundles read those of the project's cdk.out, which cdk deploy ships.
  const app = appWithFlags({ 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:bundling-stacks': [] });
  const stages = addPetstoreStages(app);
  const synthesizedStage = (name: StageName): SynthesizedStage => {
    const template = Template.fromStack(stages[name].stack);
    const resources = template.toJSON().Resources as Record<string, Resource>;
    const all = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
    return {
      name,
      settings: STAGE_SETTINGS[name],
      deletionPolicy: STAGE_SETTINGS[name].removalPolicy === 'retain' ? 'Retain' : 'Delete',
      template,
      resource: (logicalId) => defined(resources[logicalId], `resource ${logicalId}`),
      all,
      only: (type) => {
        const [found, ...others] = all(type);
        if (!found || others.length > 0) throw new Error(`Expected one ${type}, found ${all(type).length}`);
        return found;
      },
    };
  };
  return {
    app,
    stages,
    staging: synthesizedStage('staging'),
    production: synthesizedStage('production'),
    // The stages share an account here: one stack holds both deploy roles.
    deployAccess: Template.fromStack(only(stages.deployAccess, 'deploy access stack')),
  };
}

export const synthesized = synthesizeApp();
