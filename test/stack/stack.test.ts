// The synthesized staging and production stacks, resource by resource: what API Gateway, IAM,
// Lambda, DynamoDB and CloudWatch will be told to build. Each construct has its suite beside this
// file (*.suite.ts); every one runs here, as one test file, so that one synthesis
// (./synthesize.ts, bundling included) serves them all, where a test file each would synthesize the
// app again.
import { readdirSync } from 'node:fs';

const suites = readdirSync(new URL('.', import.meta.url)).filter((file) => file.endsWith('.suite.ts'));
for (const suite of suites.sort()) await import(`./${suite}`);
