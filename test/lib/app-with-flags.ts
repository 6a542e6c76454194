// A CDK app of a check's own, for what the project's cdk.out cannot show (another context, a stack
// built by hand): in a temporary directory, with the feature flags of cdk.json, as `cdk synth` applies
// them. Apart from synthesize.ts, so that a check that builds only its own apps waits for no cdk.out.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { readRepoJson } from '#test/support/repository.ts';

export const appWithFlags = (context: Record<string, unknown>) =>
  new App({
    outdir: mkdtempSync(join(tmpdir(), 'petstore-cdk-')),
    context: { ...(readRepoJson('cdk.json') as { context: object }).context, ...context },
  });
