// The data every measurement runs against: one embedded DynamoDB (dynalite, in this process),
// the table, seeded pets and an API key. The children talk to dynalite directly; this process
// talks to it through the counting proxy, so its requests can be counted.
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEmbeddedDynamoDb } from '#local/embedded-dynamodb.ts';
import { ensureTable } from '#local/table-setup.ts';
import { PET_STATUSES } from '#shared/schemas.ts';
import { startCountingProxy } from './counting-proxy.ts';
import type { CountingProxy } from './counting-proxy.ts';

/** Enough pets for full pages of every status (the listings read 21 items). */
const SEEDED_PETS = 90;

export type Fixture = {
  /** The whole environment of a child: what the stack sets, and nothing of this shell's. */
  childEnv: NodeJS.ProcessEnv;
  proxy: CountingProxy;
  apiKey: string;
  /** A pet that exists, for getPet. */
  petId: number;
  close(): Promise<void>;
};

export async function startFixture(): Promise<Fixture> {
  const dynamoDb = await startEmbeddedDynamoDb();
  const proxy = await startCountingProxy(dynamoDb.endpoint);
  const env = {
    PETSTORE_TABLE_NAME: 'petstore-bench',
    PETSTORE_CURSOR_SECRET: randomBytes(32).toString('base64url'),
    AWS_REGION: 'us-east-1',
    // A local DynamoDB accepts any credentials, but the SDK insists on having some.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Metrics (embedded metric format on stdout) and info logs would measure the terminal.
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  };
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
  Object.assign(process.env, env, { AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint });

  const client = new DynamoDBClient({});
  await ensureTable(client, env.PETSTORE_TABLE_NAME);
  client.destroy();
  // The store reads its environment when it is loaded, so only now.
  const { petStore } = await import('#shared/store/dynamodb-pet-store.ts');
  const { issueApiKey } = await import('#shared/store/api-key-store.ts');
  const { key: apiKey } = await issueApiKey('bench');
  let petId = 0;
  for (let i = 0; i < SEEDED_PETS; i++) {
    const status = PET_STATUSES[i % PET_STATUSES.length] ?? 'available';
    const pet = await petStore.create({ name: `Pet ${i}`, categoryId: BigInt(1 + (i % 7)), status });
    petId ||= pet.id;
  }
  return {
    childEnv: { ...env, AWS_ENDPOINT_URL_DYNAMODB: dynamoDb.endpoint },
    proxy,
    apiKey,
    petId,
    close: async () => {
      await proxy.close();
      await dynamoDb.close();
    },
  };
}
