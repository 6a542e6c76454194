// One Lambda execution environment for the stage run (local/lambda-instances.ts starts one per
// concurrent instance): it loads the handler module that `_HANDLER` names from `LAMBDA_TASK_ROOT`
// as the Node.js runtime does (.mjs, .js or .cjs; the bundles are CommonJS .js files), reports
// that it is ready or why its init failed, then answers one invocation at a time over IPC. An
// exception that escapes a handler ends the process, as it ends a Lambda instance.
// The runner alone decides when an instance stops (it kills it, or goes away and disconnects):
// Ctrl-C in a terminal signals the whole process group, and an instance that died of it would
// fail the requests the stage run is still draining.
// Plain JavaScript importing only Node built-ins, so that nothing but the bundle is loaded, as in
// Lambda.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { compileFunction, constants } from 'node:vm';

const { _HANDLER = 'index.handler', LAMBDA_TASK_ROOT = '.' } = process.env;
const exportAt = _HANDLER.lastIndexOf('.');
const moduleName = _HANDLER.slice(0, exportAt);
const exportName = _HANDLER.slice(exportAt + 1);

const errorOf = (error) => ({
  errorType: error instanceof Error ? error.name : typeof error,
  errorMessage: error instanceof Error ? error.message : String(error),
});

/**
 * In Lambda nothing lies above the task root, so a .js file there is CommonJS unless a
 * package.json of the task root says "module". Here the assets sit under this project, whose
 * package.json says "module" for everything below it: so the task root alone decides.
 */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  const manifest = join(LAMBDA_TASK_ROOT, 'package.json');
  return !existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
}

/** What require() does with a CommonJS file, whatever package.json lies above it. */
function requireCommonJs(file) {
  const module = { exports: {} };
  const parameters = ['exports', 'require', 'module', '__filename', '__dirname'];
  const body = compileFunction(readFileSync(file, 'utf8'), parameters, {
    filename: file,
    // The SDK imports node:http with import() when the endpoint is http://, as the local one is.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

async function loadHandler() {
  const file = ['.mjs', '.js', '.cjs']
    .map((extension) => join(LAMBDA_TASK_ROOT, `${moduleName}${extension}`))
    .find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`Cannot find module '${moduleName}' in ${LAMBDA_TASK_ROOT}`);
  const exports = isCommonJs(file) ? requireCommonJs(file) : await import(pathToFileURL(file).href);
  const handler = exports[exportName];
  if (typeof handler !== 'function') throw new Error(`${_HANDLER} is undefined or not exported`);
  return handler;
}

/** What handlers read of Lambda's context. */
const lambdaContext = ({ requestId, deadline }) => ({
  awsRequestId: requestId,
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
  invokedFunctionArn: process.env.PETSTORE_LOCAL_FUNCTION_ARN,
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
  logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
  logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
process.on('disconnect', () => process.exit());

let handler;
try {
  handler = await loadHandler();
} catch (error) {
  process.send({ type: 'init-error', ...errorOf(error) }, () => process.exit(1));
}

if (handler) {
  process.on('message', async (invocation) => {
    try {
      const result = await handler(invocation.event, lambdaContext(invocation));
      process.send({ type: 'result', id: invocation.id, result: result ?? null });
    } catch (error) {
      process.send({ type: 'error', id: invocation.id, ...errorOf(error) });
    }
  });
  process.send({ type: 'ready' });
}
