// How every tool outside Lambda reaches DynamoDB: the embedded DynamoDB, or the endpoint it is given.
// A DynamoDB other than AWS's own is "owned": it gets dummy credentials and its table is created when
// missing. On AWS nothing is created, and the tools write nothing of their own.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createTableClient } from '#shared/store/dynamodb.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { LocalSetupError, startEmbeddedDynamoDb } from '#local/dynamodb/embedded.ts';
import { LOCAL_REGION } from '#local/iam/account.ts';
import { ensureTable } from '#local/dynamodb/table-setup.ts';

export const DEFAULT_TABLE_NAME = 'petstore-local';
/** A local DynamoDB accepts any credentials, but the SDK insists on having some. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const AWS_ENDPOINT = /\.amazonaws\.com(\.cn)?(:\d+)?\/?$|\.api\.aws(:\d+)?\/?$/i;
/** `https://dynamodb.eu-west-1.amazonaws.com` is in eu-west-1. */
const regionOf = (endpoint: string) => /dynamodb[.-]([a-z]{2}(?:-[a-z]+)+-\d)\./i.exec(endpoint)?.[1];

export type LocalDynamoDbOptions = {
  /** Another DynamoDB instead of the embedded one (AWS_ENDPOINT_URL_DYNAMODB). */
  endpoint?: string | undefined;
  /** Where the embedded DynamoDB keeps its data: in memory when absent. */
  dataDir?: string | undefined;
  tableName?: string | undefined;
  region?: string | undefined;
  /** False: a missing table stays missing, for a tool that must write nothing before its checks. */
  createTable?: boolean | undefined;
};

/** DynamoDB's rule for a table name, checked first: a DynamoDB refusing the name is no bad endpoint. */
const TABLE_NAME = /^[\w.-]{3,255}$/;

/** The options as the local tools take them from their environment; a bad table name is one line. */
export function localDynamoDbOptions(env: NodeJS.ProcessEnv): LocalDynamoDbOptions {
  const tableName = env.PETSTORE_TABLE_NAME || undefined;
  if (tableName !== undefined && !TABLE_NAME.test(tableName))
    throw new LocalSetupError(
      `PETSTORE_TABLE_NAME must be 3 to 255 letters, digits, "_", "-" or "." (DynamoDB's rule), not "${tableName}".`,
    );
  return {
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB || undefined,
    dataDir: env.PETSTORE_DATA_DIR || undefined,
    tableName,
    region: env.AWS_REGION || undefined,
  };
}

export type LocalDynamoDb = {
  endpoint: string;
  /** The region its clients sign for: a DynamoDB Local without -sharedDb keeps tables per region. */
  region: string | undefined;
  tableName: string;
  /** False on AWS's own endpoints. */
  owned: boolean;
  table: TableClient;
  /** For requests the table client does not make, on this endpoint: reading another table. */
  documentClient: DynamoDBDocumentClient;
  close(): Promise<void>;
};

type SdkError = Error & { $fault?: 'client' | 'server'; $metadata?: { httpStatusCode?: number } };

/**
 * The table could not be set up: the endpoint does not answer, answers not as a DynamoDB, or is a
 * DynamoDB that refuses (an error of its own protocol, which the SDK marks with a fault): one line.
 */
function setupFailure(endpoint: string, tableName: string, error: SdkError) {
  const reason = error.message.split('\n')[0] || error.name;
  if (error.$fault !== undefined && error.name.endsWith('Exception'))
    return new LocalSetupError(
      `DynamoDB at ${endpoint} refused to set up table ${tableName}: ${error.name} (${reason}).`,
    );
  return new LocalSetupError(
    error.$metadata?.httpStatusCode !== undefined
      ? `${endpoint} answered, but not as a DynamoDB (${reason}): check AWS_ENDPOINT_URL_DYNAMODB.`
      : `DynamoDB at ${endpoint} is unreachable (${reason}): start it, or unset AWS_ENDPOINT_URL_DYNAMODB for the embedded one.`,
  );
}

export async function openLocalDynamoDb(options: LocalDynamoDbOptions = {}): Promise<LocalDynamoDb> {
  const { dataDir, tableName = DEFAULT_TABLE_NAME, createTable = true } = options;
  const embedded = options.endpoint === undefined ? await startEmbeddedDynamoDb({ dataDir }) : undefined;
  const endpoint = embedded?.endpoint ?? options.endpoint ?? '';
  const owned = !AWS_ENDPOINT.test(endpoint);
  // On AWS, credentials come from the SDK's usual chain (environment, profile, SSO).
  const region = options.region ?? (owned ? LOCAL_REGION : regionOf(endpoint));
  const clientConfig: DynamoDBClientConfig = owned
    ? { endpoint, region, credentials: LOCAL_CREDENTIALS }
    : { endpoint, region };
  const documentClient = createDocumentClient(clientConfig);
  const close = async () => {
    documentClient.destroy();
    await embedded?.close();
  };
  if (owned && createTable) {
    const setupClient = new DynamoDBClient(clientConfig);
    try {
      await ensureTable(setupClient, tableName);
    } catch (error) {
      await close();
      throw setupFailure(endpoint, tableName, error as SdkError);
    } finally {
      setupClient.destroy();
    }
  }
  return {
    endpoint,
    region,
    tableName,
    owned,
    table: createTableClient({ tableName, documentClient }),
    documentClient,
    close,
  };
}
