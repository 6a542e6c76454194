// One Lambda execution environment of the stage run, a process per concurrent instance: it loads the
// handler `_HANDLER` names from `LAMBDA_TASK_ROOT` as the Node.js runtime does, reports that it is ready
// or why its init failed, then answers one invocation at a time over IPC. Plain JavaScript importing only
// Node built-ins, so that nothing but the bundle is loaded, as in Lambda.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

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
 * package.json says "module" for everything below it: so the task root alone decides, through a
 * module hook that gives its .js files their format (where vm.compileFunction would need an
 * experimental loader for the SDK's import() of node:http, and Node.js would warn of it).
 */
function taskRootJsIsCommonJs() {
  const manifest = join(LAMBDA_TASK_ROOT, 'package.json');
  return !existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
}

const jsIsCommonJs = taskRootJsIsCommonJs();
if (jsIsCommonJs) {
  const taskRoot = pathToFileURL(join(resolve(LAMBDA_TASK_ROOT), '/')).href;
  registerHooks({
    load: (url, context, nextLoad) =>
      nextLoad(
        url,
        url.startsWith(taskRoot) && url.endsWith('.js') ? { ...context, format: 'commonjs' } : context,
      ),
  });
}

const isCommonJs = (file) => file.endsWith('.cjs') || (file.endsWith('.js') && jsIsCommonJs);

/** .mjs, .js or .cjs, as the Node.js runtime looks for it (the bundles are CommonJS .js files). */
async function loadHandler() {
  const file = ['.mjs', '.js', '.cjs']
    .map((extension) => join(LAMBDA_TASK_ROOT, `${moduleName}${extension}`))
    .find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`Cannot find module '${moduleName}' in ${LAMBDA_TASK_ROOT}`);
  const exports = isCommonJs(file) ? createRequire(file)(file) : await import(pathToFileURL(file).href);
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

// The runner alone decides when an instance stops (it kills it, or goes away and disconnects): Ctrl-C
// in a terminal signals the whole process group, and an instance that died of it would fail the
// requests the stage run is still draining.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
process.on('disconnect', () => process.exit());

let handler;
try {
  handler = await loadHandler();
} catch (error) {
  process.send({ type: 'init-error', ...errorOf(error) }, () => process.exit(1));
}

// An exception that escapes a handler ends the process, as it ends a Lambda instance.
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
