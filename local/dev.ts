// `npm run dev`: `npm start` that reloads on save. This process owns what must outlive a reload: the
// embedded DynamoDB (data in memory too), the API key, the HTTP server and its connections. The API
// itself runs in a worker process that a change to the sources replaces, with one line per reload.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevReloader } from '#local/dev/reloader.ts';
import { announce } from '#local/server/banner.ts';
import { listen } from '#local/server/http-server.ts';
import { shutdownOnSignals } from '#local/server/shutdown.ts';
import { explainStartError } from '#local/settings.ts';
import { openStartData } from '#local/start-data.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WATCHED = ['functions', 'shared', 'local'].map((dir) => join(PROJECT_ROOT, dir));

const log = (line: string) => console.log(line);
const { settings, dynamoDb, cursorSecret, apiKey } = await openStartData(process.env, log);

const reloader = createDevReloader({
  config: {
    endpoint: dynamoDb.endpoint,
    tableName: dynamoDb.tableName,
    region: dynamoDb.region,
    cursorSecret,
    apiKey: apiKey.key,
  },
  watchDirs: WATCHED,
  root: PROJECT_ROOT,
  log,
});

async function startServer() {
  const failure = await reloader.start();
  if (failure) log(`dev: the API does not load yet (fix it and save): ${failure}`);
  return listen(reloader.gateway, settings);
}

const server = await startServer().catch(async (error: NodeJS.ErrnoException) => {
  await reloader.close();
  await dynamoDb.close();
  return explainStartError(settings, error);
});

announce('Pet store API (npm run dev: reloads on save)', settings, {
  url: server.url,
  dynamoDb,
  apiKey,
  docs: true,
});
shutdownOnSignals(server.close, reloader.close, dynamoDb.close);
