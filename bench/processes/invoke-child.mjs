// One fresh Node process stands for one Lambda execution environment: it loads a bundle as the Lambda
// runtime does (require() for a CommonJS .js, import() for an .mjs), invokes it once (the cold start),
// then as often as asked (warm), and sends its timings (a ChildResult) to the parent. Plain JavaScript on
// Node built-ins only: no type stripper, nor anything else Lambda would not load, before the clock starts.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

/** What to load and invoke (a ChildRequest), the parent's first message: before any clock starts. */
const request = await new Promise((resolve) => process.once('message', resolve));

/** What the handlers read of Lambda's context (middy's early timeout, the logger's fields). */
const lambdaContext = () => ({
  awsRequestId: randomUUID(),
  functionName: 'bench',
  functionVersion: '$LATEST',
  memoryLimitInMB: '256',
  getRemainingTimeInMillis: () => 10_000,
});

// A handler may rewrite the event it is given: each invocation gets its own copy, of the events in turn.
let invocations = 0;
const freshEvent = () => JSON.parse(JSON.stringify(request.events[invocations++ % request.events.length]));
const cpuMs = ({ user, system }) => (user + system) / 1_000;

const unexpectedStatuses = [];
function check(result) {
  const status = result?.statusCode ?? (result?.principalId ? 200 : 0);
  if (status !== request.expectedStatus) unexpectedStatuses.push(status);
}

const coldEvent = freshEvent();
const coldCpuStart = process.cpuUsage();
const coldStart = performance.now();
const { handler } = request.bundle.endsWith('.mjs')
  ? await import(pathToFileURL(request.bundle).href)
  : createRequire(import.meta.url)(request.bundle);
check(await handler(coldEvent, lambdaContext()));
const coldMs = performance.now() - coldStart;
const coldCpuMs = cpuMs(process.cpuUsage(coldCpuStart));
const rssAfterColdStartMb = process.memoryUsage.rss() / 2 ** 20;

for (let i = 0; i < request.warmup; i++) check(await handler(freshEvent(), lambdaContext()));

const latenciesMs = [];
const warmCpuStart = process.cpuUsage();
for (let i = 0; i < request.iterations; i++) {
  const event = freshEvent();
  const context = lambdaContext();
  const started = performance.now();
  const result = await handler(event, context);
  latenciesMs.push(performance.now() - started);
  check(result);
}
const warmCpuMs = cpuMs(process.cpuUsage(warmCpuStart));

// The SDK's keep-alive sockets would hold the process open: leave once the parent has the result.
process.send(
  {
    coldMs,
    coldCpuMs,
    rssAfterColdStartMb,
    latenciesMs,
    cpuMsPerInvocation: request.iterations > 0 ? warmCpuMs / request.iterations : 0,
    unexpectedStatuses,
  },
  () => process.exit(0),
);
