// `PETSTORE_API_KEY=<key> npm run test:e2e -- --base-url <url> | --stage <stage> [--read-only]`: the HTTP
// contract tests (test/e2e/contract-suite.ts) against any running API, local or deployed, named by its
// URL or by the outputs of its deployed stage. A bad argument exits 2 and a target that cannot be tested
// exits 1, with one line each; otherwise jest runs the suite, and this exits with jest's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { E2E_JEST_ARGUMENTS } from '#scripts/e2e-jest.ts';
import { whyUntestable } from '#scripts/e2e-target.ts';
import { StageOutputsError, readStageOutputs } from '#scripts/stage-outputs.ts';
import { API_KEY_OPTIONS, readApiKey, readOptions, requireBaseUrl } from '#scripts/command-line.ts';

const USAGE = `usage: PETSTORE_API_KEY=<key> npm run test:e2e -- --base-url <url> [--api-key-stdin] [--read-only]
       PETSTORE_API_KEY=<key> npm run test:e2e -- --stage <stage> [--api-key-stdin] [--read-only]

Runs the HTTP contract tests (test/e2e/contract-suite.ts) against a running pet store API.

  --base-url <url>  the API's base URL: https, or http to this machine only, ending in /v1
                    (http://127.0.0.1:3000/v1, https://<id>.execute-api.<region>.amazonaws.com/v1)
  --stage <stage>   instead of --base-url: a deployed stage, staging or production; its base URL
                    is the ApiUrl output in cdk-outputs.<stage>.json (npm run deploy:<stage> writes it),
                    else of the stack petstore-<stage>, read from CloudFormation with your AWS_PROFILE
  --api-key-stdin   read the API key from stdin's first line instead of PETSTORE_API_KEY
  --api-key <key>   the key as an argument, which ps and npm's log show: avoid it
  --read-only       send only requests that change nothing: no pet is created
  --help            print this text

Exits with jest's exit code; 2 when an argument is missing or bad; 1, in one line, when nothing
answers at the base URL, what answers is not the pet store API, or the API refuses the key.`;

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const fail = (message: string, code = 2): never => {
  console.error(`petstore e2e: ${message}`);
  process.exit(code);
};

const readArguments = (args: string[]) =>
  readOptions(
    args,
    {
      'base-url': { type: 'string' },
      stage: { type: 'string' },
      ...API_KEY_OPTIONS,
      'read-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    (message) => fail(`${message} (see --help)`),
  );

/** The base URL from --base-url, or from the outputs of the --stage deployed: exactly one of them. */
async function chooseBaseUrl(baseUrl: string | undefined, stage: string | undefined): Promise<string> {
  if (baseUrl !== undefined && stage !== undefined)
    return fail('--base-url and --stage both name the API: give one of them (see --help)');
  if (baseUrl !== undefined) return requireBaseUrl(baseUrl, '--base-url', fail);
  if (stage === undefined) return fail('--base-url or --stage is required (see --help)');
  try {
    const { outputs, source } = await readStageOutputs(stage, ['ApiUrl']);
    return requireBaseUrl(outputs.ApiUrl, `ApiUrl in ${source}`, fail);
  } catch (error) {
    // The reader's messages end in a period, these lines do not.
    if (error instanceof StageOutputsError) return fail(error.message.replace(/\.$/, ''));
    throw error;
  }
}

const values = readArguments(process.argv.slice(2));
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const baseUrl = await chooseBaseUrl(values['base-url'], values.stage);
const apiKey = await readApiKey(
  values['api-key-stdin'],
  (message) => fail(`${message} (see --help)`),
  values['api-key'],
);
const untestable = await whyUntestable(baseUrl, apiKey);
if (untestable) fail(untestable, 1);

// remote.e2e.ts reads its target from the PETSTORE_E2E_* variables.
const jest = spawn(process.execPath, E2E_JEST_ARGUMENTS, {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    PETSTORE_E2E_BASE_URL: baseUrl,
    PETSTORE_E2E_API_KEY: apiKey,
    PETSTORE_E2E_READ_ONLY: String(values['read-only']),
  },
});
// Ctrl+C reaches jest too; this process waits for jest to stop instead of leaving it behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => jest.kill(signal));
jest.once('error', (error) => {
  console.error(`petstore e2e: could not run jest: ${error.message}`);
  process.exit(1);
});
jest.once('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
