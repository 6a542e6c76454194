// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names, running the handlers from the sources in this process. The
// composition root of the local server: it reads its settings once, and any bad one stops it with
// one line.
import { randomBytes } from 'node:crypto';
import { createObservability } from '#shared/observability.ts';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { localApiKey } from '#local/local-api-key.ts';
import { openLocalDynamoDb } from '#local/local-dynamodb.ts';
import { createLocalFunctions, sourceApiGateway } from '#local/local-functions.ts';
import {
  explainStartError,
  listen,
  printBanner,
  readStartSettings,
  shutdownOnSignals,
} from '#local/start-settings.ts';
import { tableCursorSecret } from '#local/table-cursor-secret.ts';

const settings = readStartSettings(process.env);
// CloudWatch metrics (embedded metric format) mean nothing locally; Powertools reads this setting.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const explain = (error: NodeJS.ErrnoException) => explainStartError(settings, error);

const dynamoDb = await openLocalDynamoDb(settings).catch(explain);
const { table } = dynamoDb;

async function startServer() {
  // In a table it does not own, the server writes nothing of its own: a secret for this run only.
  const cursorSecret =
    settings.cursorSecret ??
    (dynamoDb.owned ? await tableCursorSecret(table) : randomBytes(32).toString('base64url'));
  const apiKey = await localApiKey(createApiKeyStore(table), dynamoDb, settings.apiKey);
  const functions = createLocalFunctions({ table, cursorSecret, observability: createObservability() });
  const server = await listen(sourceApiGateway(functions), settings);
  return { server, apiKey };
}

const { server, apiKey } = await startServer().catch(async (error: NodeJS.ErrnoException) => {
  await dynamoDb.close();
  return explain(error);
});

printBanner('Pet store API', settings, { server, dynamoDb, apiKey });
shutdownOnSignals(server.close, dynamoDb.close);
