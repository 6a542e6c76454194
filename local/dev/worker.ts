// The reloadable half of `npm run dev`: the API built from the sources as they are on disk when this
// process starts, answering the requests the dev server passes over IPC. It holds no state of its own, so
// a reload is a new one of these. The API's modules are imported once the configuration arrives, so that
// an edit that does not load (a syntax error) is reported in one message instead of crashing.
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { GatewayRequest } from '#local/api-gateway/gateway.ts';

export type DevWorkerConfig = {
  endpoint: string;
  tableName: string;
  region: string | undefined;
  cursorSecret: string;
  apiKey: string;
};

export type ToDevWorker =
  { type: 'start'; config: DevWorkerConfig } | { type: 'request'; id: number; request: GatewayRequest };

export type FromDevWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'response'; id: number; result: APIGatewayProxyResult };

const send = (message: FromDevWorker) => process.send?.(message);

/** Where an edit broke the load: the message, and the first stack frame in the sources. */
function describeLoadError(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  const at = error.stack?.split('\n').find((line) => /\s+at .*file:/.test(line) || /^file:/.test(line));
  return [error.message.split('\n')[0], at?.trim()].filter(Boolean).join(' ');
}

async function loadApi(config: DevWorkerConfig) {
  const [{ openLocalDynamoDb }, { createSourceFunctions }, { sourceApiGateway }, { withApiReference }] =
    await Promise.all([
      import('#local/dynamodb/connect.ts'),
      import('#local/lambda/source-functions.ts'),
      import('#local/api-gateway/source-gateway.ts'),
      import('#local/server/api-reference.ts'),
    ]);
  const { table } = await openLocalDynamoDb({
    endpoint: config.endpoint,
    tableName: config.tableName,
    region: config.region,
  });
  const functions = createSourceFunctions({ table, cursorSecret: config.cursorSecret });
  return withApiReference(sourceApiGateway(functions), { apiKey: config.apiKey });
}

let api: Awaited<ReturnType<typeof loadApi>> | undefined;

process.on('message', async (message: ToDevWorker) => {
  if (message.type === 'start') {
    try {
      api = await loadApi(message.config);
      send({ type: 'ready' });
    } catch (error) {
      send({ type: 'failed', message: describeLoadError(error) });
    }
    return;
  }
  if (!api) return;
  // IPC delivers the body as a plain Uint8Array.
  const { body } = message.request;
  const request = { ...message.request, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  send({ type: 'response', id: message.id, result: await api(request) });
});
// The dev server decides when this process ends: it disconnects once the requests this process
// holds are answered, and its own end (even a crash) disconnects too. Ctrl-C in the terminal
// signals the whole process group: the dev server first lets the requests in flight finish here.
process.on('disconnect', () => process.exit(0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
