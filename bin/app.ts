// `cdk synth` runs this (cdk.json): the staging and production stages of the pet store and the
// deploy role's stack. A bad context value, or a finding of cdk-nag that is not acknowledged, fails
// it with one line each.
import { App } from 'aws-cdk-lib';
import { ContextError } from '#lib/app-context.ts';
import { addPetstoreStages } from '#lib/petstore-app.ts';
import { validationFailures } from '#lib/validation-report.ts';

const app = new App();
try {
  addPetstoreStages(app);
} catch (error) {
  if (!(error instanceof ContextError)) throw error;
  console.error(`petstore: ${error.message}`);
  process.exit(1);
}
const failures = validationFailures(app.synth().directory);
for (const failure of failures) console.error(failure);
if (failures.length > 0) process.exitCode = 1;
