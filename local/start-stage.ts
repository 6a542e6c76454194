// `npm run start:stage -- <staging|production> [--assembly <dir>]`: that stage as `cdk deploy` would ship
// it, served on this machine, synthesizing cdk.out first when missing or stale. The API, the functions'
// bundles, environment, limits and IAM policies all come from the template. Same settings as `npm start`;
// DynamoDB is the embedded one unless AWS_ENDPOINT_URL_DYNAMODB names another local one.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { localApiKey, localApiKeyFile } from '#local/server/api-key.ts';
import { openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import { checkTableLayout } from '#local/dynamodb/table-layout.ts';
import { PET_SHARDS } from '#shared/store/table.ts';
import { givenStageAssembly, projectStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import { startStageApi } from '#local/cloud-assembly/stage-api.ts';
import { announce } from '#local/server/banner.ts';
import { listen } from '#local/server/http-server.ts';
import { shutdownOnSignals } from '#local/server/shutdown.ts';
import { explainStartError, fail, readStartSettings } from '#local/settings.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: npm run start:stage -- <staging|production> [--assembly <cloud assembly dir>]';

function readArguments() {
  try {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: { assembly: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const [stage, ...extra] = positionals;
    if (stage === undefined || extra.length > 0) return fail(USAGE);
    return { stage, assembly: values.assembly };
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
}

const { stage, assembly: assemblyDir } = readArguments();
const settings = readStartSettings(process.env);
const explain = (error: NodeJS.ErrnoException) => explainStartError(settings, error);

const assembly = (() => {
  try {
    return assemblyDir
      ? givenStageAssembly(assemblyDir, stage)
      : projectStageAssembly(PROJECT_ROOT, stage, (line) => console.log(line));
  } catch (error) {
    return fail((error as Error).message);
  }
})();

const stageApi = await startStageApi({
  assembly,
  async openDynamoDb(tableName) {
    const dynamoDb = await openLocalDynamoDb({ ...settings, tableName });
    // The functions sign for the local IAM check, which AWS would not accept.
    const refusal = dynamoDb.owned
      ? await checkTableLayout(dynamoDb, PET_SHARDS).catch((error: Error) => error)
      : new Error('AWS_ENDPOINT_URL_DYNAMODB must name a local DynamoDB: the stage run checks IAM itself.');
    if (!refusal) return dynamoDb;
    await dynamoDb.close();
    throw refusal;
  },
  log: (functionName, line) => console.log(`[${functionName}] ${line}`),
  instanceStarted: (functionName, pid) => console.log(`[${functionName}] cold start: instance pid ${pid}`),
}).catch(explain);

async function startServer() {
  const { dynamoDb } = stageApi;
  const apiKey = await localApiKey(createApiKeyStore(dynamoDb.table), dynamoDb, {
    given: settings.apiKey,
    keyFile: settings.dataDir && localApiKeyFile(settings.dataDir, dynamoDb.tableName),
  });
  const server = await listen(stageApi.gateway, settings);
  return { server, apiKey };
}

const { server, apiKey } = await startServer().catch(async (error: NodeJS.ErrnoException) => {
  await stageApi.close();
  return explain(error);
});

announce(`Pet store API, ${stage} stage from ${assembly.assemblyDir},`, settings, {
  url: server.url,
  dynamoDb: stageApi.dynamoDb,
  apiKey,
});
shutdownOnSignals(server.close, stageApi.close);
