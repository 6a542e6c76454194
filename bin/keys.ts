// `npm run keys -- <create --name NAME | list | revoke ID> [--stage staging|production]`
// Manages API keys in a table: a deployed stage's (named in the outputs file of its deploy), a
// DynamoDB named by AWS_ENDPOINT_URL_DYNAMODB + PETSTORE_TABLE_NAME, or the local server's
// PETSTORE_DATA_DIR (while that server is stopped: the embedded store takes a file lock). For a
// stage, keys are also registered in (and disabled from) its usage plan, for per-key limits.
// The plain key is printed once, by `create`; nothing else ever shows or logs it.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { createApiKeyStore, hashApiKey } from '#shared/store/api-key-store.ts';
import { createDocumentClient, createTableGateway } from '#shared/store/dynamodb.ts';
import { localDynamoDbOptions, openLocalDynamoDb } from '#local/local-dynamodb.ts';
import { addToUsagePlan, disableInUsagePlan } from '#bin/usage-plan-keys.ts';

const USAGE =
  'usage: npm run keys -- <create --name NAME | list | revoke KEY_ID> [--stage staging|production]';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { name: { type: 'string' }, stage: { type: 'string' } },
});
const [command, keyId] = positionals;

/** The table and usage plan of a deployed stage, from the outputs file `npm run deploy:<stage>` writes. */
function stageOutputs(stage: string) {
  const outputsFile = `cdk-outputs.${stage}.json`;
  if (!existsSync(outputsFile)) fail(`${outputsFile} not found: deploy first (npm run deploy:${stage}).`);
  const stacks = Object.values(
    JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Record<string, string>>,
  );
  const output = (name: string) =>
    stacks.flatMap((outputs) => Object.entries(outputs)).find(([key]) => key.startsWith(name))?.[1] ??
    fail(`No ${name} output in ${outputsFile}.`);
  return { tableName: output('TableName'), usagePlanId: output('UsagePlanId') };
}

/** A stage's table through the SDK's usual credentials and region, or a DynamoDB of the user's. */
async function openTable() {
  if (values.stage) {
    if (!['staging', 'production'].includes(values.stage)) fail(USAGE);
    const { tableName, usagePlanId } = stageOutputs(values.stage);
    const documentClient = createDocumentClient();
    return {
      table: createTableGateway({ tableName, documentClient }),
      usagePlanId,
      close: async () => documentClient.destroy(),
    };
  }
  const options = localDynamoDbOptions(process.env);
  if (!options.endpoint && !options.dataDir)
    fail('Set --stage, AWS_ENDPOINT_URL_DYNAMODB or PETSTORE_DATA_DIR.');
  const dynamoDb = await openLocalDynamoDb(options);
  return { table: dynamoDb.table, usagePlanId: undefined, close: dynamoDb.close };
}

const { table, usagePlanId, close } = await openTable().catch((error: Error) =>
  fail(`keys: ${error.message}`),
);
const keys = createApiKeyStore(table);
const apiGateway = new APIGatewayClient({});

async function create(name: string) {
  const issued = await keys.issue(name);
  if (usagePlanId) {
    await addToUsagePlan(apiGateway, usagePlanId, issued.id, hashApiKey(issued.key)).catch(async (error) => {
      await keys.revoke(issued.id);
      throw error;
    });
  }
  console.log(`Issued ${issued.id} (${issued.name}). The key, shown this once:\n${issued.key}`);
}

async function revoke(id: string) {
  if (!(await keys.revoke(id))) fail(`No key with id ${id}.`);
  if (usagePlanId && !(await disableInUsagePlan(apiGateway, id))) {
    console.warn(`${id} had no API Gateway key in the usage plan: API Gateway refused it already.`);
  }
  console.log(
    `Revoked ${id}: refused at once by the authorizer, within the authorizer cache TTL by API Gateway.`,
  );
}

async function list() {
  for (const key of await keys.list()) {
    console.log(
      [key.id, key.createdAt, key.revokedAt ? `revoked ${key.revokedAt}` : 'active', key.name].join('  '),
    );
  }
}

try {
  if (command === 'create' && values.name) await create(values.name);
  else if (command === 'list' && !keyId) await list();
  else if (command === 'revoke' && keyId) await revoke(keyId);
  else fail(USAGE);
} catch (error) {
  fail(`keys: ${(error as Error).message}`);
} finally {
  await close();
}
