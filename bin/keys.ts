// `npm run keys -- <create --name NAME | list | revoke ID> [--stage staging|production]`
// Manages API keys in a table: a deployed stage's (its name from the cdk deploy outputs file), a
// DynamoDB named by AWS_ENDPOINT_URL_DYNAMODB + PETSTORE_TABLE_NAME, or the local server's
// PETSTORE_DATA_DIR (while that server is stopped: the embedded store takes a file lock).
// The plain key is printed once, by `create`; nothing else ever shows or logs it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TABLE_NAME } from '#shared/store/table.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';
import { ensureTable } from '#local/table-setup.ts';

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

/** The table of a deployed stage, from the outputs file `npm run deploy:<stage>` writes. */
function stageTableName(stage: string): string {
  const outputsFile = `cdk-outputs.${stage}.json`;
  if (!existsSync(outputsFile)) fail(`${outputsFile} not found: deploy first (npm run deploy:${stage}).`);
  const outputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Record<string, string>>;
  const stack = Object.entries(outputs).find(([name]) =>
    name.toLowerCase().includes(stage.toLowerCase()),
  )?.[1];
  const tableName = Object.entries(stack ?? {}).find(([name]) => /TableName/.test(name))?.[1];
  return tableName ?? fail(`No table name for stage ${stage} in ${outputsFile}.`);
}

let embedded: Awaited<ReturnType<typeof startEmbeddedDynamoDb>> | undefined;
if (values.stage) {
  if (!['staging', 'production'].includes(values.stage)) fail(USAGE);
  process.env.PETSTORE_TABLE_NAME = stageTableName(values.stage);
} else if (!process.env.AWS_ENDPOINT_URL_DYNAMODB) {
  const dataDir =
    process.env.PETSTORE_DATA_DIR ?? fail('Set --stage, AWS_ENDPOINT_URL_DYNAMODB or PETSTORE_DATA_DIR.');
  embedded = await startEmbeddedDynamoDb({ path: join(dataDir, 'dynamodb') });
  process.env.AWS_ENDPOINT_URL_DYNAMODB = embedded.endpoint;
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
}
process.env.AWS_REGION ??= 'us-east-1';
process.env.PETSTORE_TABLE_NAME ??= DEFAULT_TABLE_NAME;
if (embedded) await ensureTable(new DynamoDBClient({}), process.env.PETSTORE_TABLE_NAME);

// The store reads its table name when loaded, so it is loaded only now.
const keys = await import('#shared/store/api-key-store.ts');

try {
  if (command === 'create' && values.name) {
    const issued = await keys.issueApiKey(values.name);
    console.log(`Issued ${issued.id} (${issued.name}). The key, shown this once:\n${issued.key}`);
  } else if (command === 'list' && !keyId) {
    for (const key of await keys.listApiKeys()) {
      console.log(
        [key.id, key.createdAt, key.revokedAt ? `revoked ${key.revokedAt}` : 'active', key.name].join('  '),
      );
    }
  } else if (command === 'revoke' && keyId) {
    const revoked = await keys.revokeApiKey(keyId);
    if (!revoked) fail(`No key with id ${keyId}.`);
    console.log(
      `Revoked ${keyId}: refused at once by the authorizer, within the authorizer cache TTL by API Gateway.`,
    );
  } else {
    fail(USAGE);
  }
} catch (error) {
  fail(`keys: ${(error as Error).message}`);
} finally {
  await embedded?.close();
}
