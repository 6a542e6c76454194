// The data every measurement runs against: one embedded DynamoDB (dynalite, in this process),
// the table, seeded pets and an API key. The children talk to dynalite directly, configured by
// their environment as Lambda configures a function, over HTTPS (bench/processes/tls-front.ts) as in AWS;
// this process talks to it through the counting proxy, so its requests can be counted.
import { randomBytes } from 'node:crypto';
import { lambdaEnvironment } from '../../functions/lambda-environment.ts';
import { STAGE_SETTINGS } from '../../lib/stage-settings.ts';
import type { FunctionName } from '../../functions/manifests.ts';
import { startEmbeddedDynamoDb } from '../../local/dynamodb/embedded.ts';
import { createSourceFunctions } from '../../local/lambda/source-functions.ts';
import type { SourceFunctions, SourceFunctionsConfig } from '../../local/lambda/source-functions.ts';
import { openLocalDynamoDb } from '../../local/dynamodb/connect.ts';
import { createPetRequest, invoke } from '../../local/api-gateway/proxy-requests.ts';
import { PET_STATUSES } from '../../shared/schemas.ts';
import type { Pet } from '../../shared/schemas.ts';
import { createApiKeyStore } from '../../shared/store/api-key-store.ts';
import { PET_SHARDS } from '../../shared/store/table.ts';
import { startCountingProxy } from '#bench/dynamodb/counting-proxy.ts';
import type { CountingProxy } from '#bench/dynamodb/counting-proxy.ts';
import { TLS_CERTIFICATE_FILE, startTlsFront } from '#bench/processes/tls-front.ts';

/**
 * Enough pets for full pages of every status in every shard (a page reads 21 items), and pages enough
 * that a walk crosses from shard to shard on fewer than 1 page in 10.
 */
export const SEEDED_PETS = 8_000;
const TABLE_NAME = 'petstore-bench';

export type Fixture = {
  /** The whole environment of a subject's child: what the stack sets, and nothing of this shell's. */
  childEnv(subject: FunctionName): NodeJS.ProcessEnv;
  proxy: CountingProxy;
  /** The functions in this process, on the table through the proxy. */
  functions: SourceFunctions;
  /** Other functions on the same table through the proxy: a stage's headers, say. */
  moreFunctions(config: Pick<SourceFunctionsConfig, 'stageHeaders'>): SourceFunctions;
  apiKey: string;
  /** The seeded pets' ids, for getPet: each asked in turn, none twice in a row. */
  petIds: number[];
  seededPets: number;
  close(): Promise<void>;
};

export async function startFixture(seededPets = SEEDED_PETS): Promise<Fixture> {
  const embedded = await startEmbeddedDynamoDb();
  const proxy = await startCountingProxy(embedded.endpoint);
  const tls = await startTlsFront(embedded.endpoint);
  const counted = await openLocalDynamoDb({ endpoint: proxy.endpoint, tableName: TABLE_NAME });
  const cursorSecret = randomBytes(32).toString('base64url');
  const functions = createSourceFunctions({ table: counted.table, cursorSecret });
  const { key: apiKey } = await createApiKeyStore(counted.table).issue('bench');
  const petIds: number[] = [];
  for (let i = 0; i < seededPets; i++) {
    const status = PET_STATUSES[i % PET_STATUSES.length] ?? 'available';
    const created = await invoke(
      functions.createPet,
      createPetRequest({ name: `Pet ${i}`, categoryId: 1 + (i % 7), status }),
    );
    petIds.push((created.json as Pet).id);
  }
  return {
    // The baselines read the table's name the way the functions do.
    childEnv: (subject) => ({
      ...lambdaEnvironment(subject, {
        tableName: TABLE_NAME,
        stage: 'bench',
        cursorSecret,
        petShards: String(PET_SHARDS),
        keyLimits: JSON.stringify(STAGE_SETTINGS.production.perKeyLimits),
      }),
      // As Lambda sets it: a function module then composes its handler when it loads, at cold start.
      AWS_LAMBDA_FUNCTION_NAME: subject,
      AWS_ENDPOINT_URL_DYNAMODB: tls.endpoint,
      NODE_EXTRA_CA_CERTS: TLS_CERTIFICATE_FILE,
      AWS_REGION: 'us-east-1',
      // A local DynamoDB accepts any credentials, but the SDK insists on having some.
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    }),
    proxy,
    functions,
    moreFunctions: (config) => createSourceFunctions({ table: counted.table, cursorSecret, ...config }),
    apiKey,
    petIds,
    seededPets,
    close: async () => {
      await counted.close();
      await proxy.close();
      await tls.close();
      await embedded.close();
    },
  };
}
