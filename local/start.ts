// `npm start`: the API on http://127.0.0.1:3000/v1 with an embedded DynamoDB, or the DynamoDB
// that AWS_ENDPOINT_URL_DYNAMODB names, running the handlers from the sources in this process. The
// composition root of the local server: it reads its settings once, and any bad one stops it with
// one line.
import { sourceApiGateway } from '#local/api-gateway/source-gateway.ts';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { announce } from '#local/server/banner.ts';
import { withApiReference } from '#local/server/api-reference.ts';
import { listen } from '#local/server/http-server.ts';
import { shutdownOnSignals } from '#local/server/shutdown.ts';
import { explainStartError } from '#local/settings.ts';
import { openStartData } from '#local/start-data.ts';

const log = (line: string) => console.log(line);
const { settings, dynamoDb, cursorSecret, apiKey } = await openStartData(process.env, log);

const functions = createSourceFunctions({ table: dynamoDb.table, cursorSecret });
const api = withApiReference(sourceApiGateway(functions), { apiKey: apiKey.key });
const server = await listen(api, settings).catch(async (error: NodeJS.ErrnoException) => {
  await dynamoDb.close();
  return explainStartError(settings, error);
});

announce('Pet store API', settings, { url: server.url, dynamoDb, apiKey, docs: true });
shutdownOnSignals(server.close, dynamoDb.close);
