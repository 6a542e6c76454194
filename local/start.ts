// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names, running the handlers from the sources in this process. The
// composition root of the local server: it reads its settings once, and any bad one stops it with
// one line.
import { openLocalStart } from '#local/local-data.ts';
import { localApi } from '#local/local-functions.ts';
import { announce, explainStartError, listen, shutdownOnSignals } from '#local/start-settings.ts';

const log = (line: string) => console.log(line);
const { settings, dynamoDb, cursorSecret, apiKey } = await openLocalStart(process.env, log);

const api = localApi({ table: dynamoDb.table, cursorSecret, apiKey: apiKey.key });
const server = await listen(api, settings).catch(async (error: NodeJS.ErrnoException) => {
  await dynamoDb.close();
  return explainStartError(settings, error);
});

announce('Pet store API', settings, { url: server.url, dynamoDb, apiKey, docs: true });
shutdownOnSignals(server.close, dynamoDb.close);
