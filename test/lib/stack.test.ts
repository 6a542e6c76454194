// The synthesized staging and production stacks, resource by resource: what API Gateway, IAM,
// Lambda, DynamoDB and CloudWatch will be told to build. Each construct's checks sit in a file that
// mirrors its module under lib/ (*.checks.ts); all run here, in one test file, so that one synthesis
// (./synthesize.ts, bundling included) serves them all instead of one for each file.
import { readdirSync } from 'node:fs';

const checks = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.checks.ts'))
  .map((file) => file.split('\\').join('/'));
for (const file of checks.sort()) await import(`./${file}`);
