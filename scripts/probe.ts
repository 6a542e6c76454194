// `PETSTORE_API_KEY=<key> npm run probe -- --base-url <url> [--creates]`: the canary's steps
// (functions/probe/steps.ts) run once from here against any running API, local or deployed, one line
// each. A bad argument exits 2 with one line and the usage, as `npm run test:e2e` does; a failed step, 1.
import { failedSteps, runProbe, stepLine } from '#functions/probe/steps.ts';
import { API_KEY_OPTIONS, readApiKey, readOptions, requireBaseUrl } from '#scripts/command-line.ts';

const USAGE_LINE =
  'usage: PETSTORE_API_KEY=<key> npm run probe -- --base-url <url> [--api-key-stdin] [--creates]';
const USAGE = `${USAGE_LINE}

Runs the synthetic probe of the deployed stages' canary against a running pet store API: a list, its
next page, a status filter, getPet and its deprecation headers (a missing pet's 404 in an empty store);
with --creates, a create and its replay.

  --base-url <url>  the API's base URL: https, or http to this machine only, ending in /v1
                    (http://127.0.0.1:3000/v1, https://<id>.execute-api.<region>.amazonaws.com/v1)
  --api-key-stdin   read the API key from stdin's first line instead of PETSTORE_API_KEY
  --api-key <key>   the key as an argument, which ps and npm's log show: avoid it
  --creates         create a pet named "probe <time>" and replay its creation (not on production)
  --help            print this text

Prints one line per step: ok, FAIL, or skip (no next page in a store of fewer than 2 pets, or a step
that needs a failed one). Exits 0 when no step failed, 1 when one did, 2 on a bad argument.`;

const fail = (message: string): never => {
  console.error(`petstore probe: ${message}\n${USAGE_LINE}`);
  process.exit(2);
};

const readArguments = (args: string[]) =>
  readOptions(
    args,
    {
      'base-url': { type: 'string' },
      ...API_KEY_OPTIONS,
      creates: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    fail,
  );

/** The base URL: https, or http to this machine, ending in /v1, with nothing the probe could not send. */
function checkBaseUrl(value: string | undefined): string {
  if (value === undefined) return fail('--base-url is required');
  return requireBaseUrl(value, '--base-url', fail);
}

const values = readArguments(process.argv.slice(2));
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const baseUrl = checkBaseUrl(values['base-url']);
const apiKey = await readApiKey(values['api-key-stdin'], fail, values['api-key']);
const results = await runProbe({ baseUrl, apiKey, creates: values.creates });
for (const result of results) console.log(stepLine(result));
process.exitCode = failedSteps(results).length > 0 ? 1 : 0;
