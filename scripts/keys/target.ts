// Where `npm run keys` finds the keys, the first that applies: a deployed stage (--stage), the
// DynamoDB the user names (AWS_ENDPOINT_URL_DYNAMODB), a data directory (PETSTORE_DATA_DIR:
// through the server that holds its lock, else opened here), else the running `npm start`. Each
// says where it went in one line, and every failure here is one line too (KeysError), never a stack.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createTableClient } from '#shared/store/dynamodb.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { StoreUnavailableError } from '#shared/store/unavailable-error.ts';
import { LocalSetupError } from '#local/dynamodb/embedded.ts';
import { DEFAULT_TABLE_NAME, localDynamoDbOptions, openLocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { LocalDynamoDbOptions } from '#local/dynamodb/connect.ts';
import { runningServers } from '#local/server/running-servers.ts';
import type { ServerRecord } from '#local/server/running-servers.ts';
import { StageOutputsError, readStageOutputs } from '#scripts/stage-outputs.ts';

/** A failure whose message is the whole story: printed as it is, on one line. */
export class KeysError extends Error {
  override name = 'KeysError';
}

export type KeysTarget = {
  /** The first line of every run: which table, and how it was found. */
  description: string;
  /** The table's place, prefixed to its errors: `table T in eu-west-3`, `table T at <endpoint>`. */
  where: string;
  table: TableClient;
  /** For requests the table client does not make, on the table's endpoint and region. */
  documentClient: DynamoDBDocumentClient;
  /** A stage's usage plan, reached in the stage table's region. */
  usagePlan?: { id: string; where: string; apiGateway: APIGatewayClient } | undefined;
  close(): Promise<void>;
};

export type TargetChoice = {
  stage?: string | undefined;
  port?: string | undefined;
  /** False: a local table that is missing is not created (restore checks before it writes). */
  createTable?: boolean | undefined;
};

const NO_SERVER =
  'no running npm start found: start one, or use --stage, AWS_ENDPOINT_URL_DYNAMODB or PETSTORE_DATA_DIR.';

/** For `--help`: the tables findKeys chooses from, in the order it looks, under `heading`. */
export const whereHelp = (heading: string) => `${heading}, the first that applies:
  --stage staging|production   that stage's table and usage plan, in the stage's region (all three
                               from cdk-outputs.<stage>.json, else from the stack petstore-<stage> in
                               CloudFormation), with your AWS credentials
  AWS_ENDPOINT_URL_DYNAMODB    that DynamoDB, table PETSTORE_TABLE_NAME (default ${DEFAULT_TABLE_NAME})
  PETSTORE_DATA_DIR            through the running server that uses it, else the directory itself
  otherwise                    the running npm start: the only one, or the one on --port (or PORT)`;

const firstLine = (text: string) => text.split('\n')[0]?.trim() ?? '';

/**
 * An error as one line: a KeysError's message as it is, an SDK or DynamoDB error on a `resource` (a
 * table, a secret) with what to do when it is about credentials.
 */
export function explainFailure(error: unknown, resource = 'table'): string {
  if (error instanceof KeysError) return error.message;
  const cause = error instanceof StoreUnavailableError ? (error.cause as Error) : (error as Error);
  const message = firstLine(cause.message) || cause.name;
  const reason =
    error instanceof StoreUnavailableError
      ? `DynamoDB is unavailable (${message})`
      : cause.name === 'ResourceNotFoundException'
        ? `no such ${resource} there (${message})`
        : message;
  const credentials = /Credentials|Token|UnrecognizedClient|SignatureDoesNotMatch/.test(cause.name);
  return credentials ? `${reason}: sign in (aws sso login) or choose a profile (AWS_PROFILE)` : reason;
}

/** A step on one place, a `resource` there (a table, a secret): its failure is one line naming the place. */
export async function at<T>(where: string, step: Promise<T>, resource = 'table'): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw error instanceof KeysError ? error : new KeysError(`${where}: ${explainFailure(error, resource)}`);
  }
}

/**
 * A deployed stage's outputs (readStageOutputs), a failure to read them a KeysError. Its region is
 * where that deployment put its resources, whatever the AWS profile in use or AWS_REGION say.
 */
export async function stageOutputs<Name extends string>(stage: string, names: readonly Name[]) {
  try {
    return (await readStageOutputs(stage, names)).outputs;
  } catch (error) {
    throw error instanceof StageOutputsError ? new KeysError(error.message) : error;
  }
}

/** A stage's table and usage plan in the stage's region, with the SDK's usual credentials. */
async function openStage(stage: string): Promise<KeysTarget> {
  // An unknown stage, or outputs out of reach, stop here: before the table or usage plan is reached.
  const outputs = await stageOutputs(stage, ['TableName', 'UsagePlanId', 'Region']);
  const { TableName: tableName, UsagePlanId: usagePlanId, Region: region } = outputs;
  // The SDK follows AWS_ENDPOINT_URL_DYNAMODB on its own, and here that names a local DynamoDB (as
  // for npm start): a stage's requests, signed with real credentials, must not go there.
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  const documentClient = createDocumentClient({ region });
  const apiGateway = new APIGatewayClient({ region });
  const where = `table ${tableName} in ${region}`;
  return {
    description: `${where}, usage plan ${usagePlanId} (stage ${stage})`,
    where,
    table: createTableClient({ tableName, documentClient }),
    documentClient,
    usagePlan: { id: usagePlanId, where: `usage plan ${usagePlanId} in ${region}`, apiGateway },
    close: async () => {
      documentClient.destroy();
      apiGateway.destroy();
    },
  };
}

/** A local DynamoDB (or an AWS endpoint the user names) through the same door as `npm start`. */
async function openLocal(options: LocalDynamoDbOptions): Promise<KeysTarget> {
  const dynamoDb = await openLocalDynamoDb(options).catch((error: Error) => {
    throw error instanceof LocalSetupError ? new KeysError(error.message) : error;
  });
  const where = `table ${dynamoDb.tableName} at ${dynamoDb.endpoint}`;
  const { table, documentClient, close } = dynamoDb;
  return { description: where, where, table, documentClient, close };
}

/** A running server's DynamoDB: an error here means the server stopped since its record was read. */
async function openServerDynamoDb(options: LocalDynamoDbOptions, server: ServerRecord) {
  return openLocal({
    ...options,
    endpoint: server.dynamoDbEndpoint,
    region: server.region ?? options.region,
  }).catch((error: Error) => {
    throw error instanceof KeysError
      ? new KeysError(
          `the running server ${server.url} has its DynamoDB at ${server.dynamoDbEndpoint}, which does not answer: restart the server.`,
        )
      : error;
  });
}

/** The same directory however it is written (relative, through a symbolic link). */
function samePath(a: string, b: string) {
  const canonical = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return canonical(a) === canonical(b);
}

function portOf(url: string) {
  const { port, protocol } = new URL(url);
  return port || (protocol === 'https:' ? '443' : '80');
}

/** --port, else PORT (which `npm start` listens on; its 0, "any free port", picks nothing). */
function chosenPort(port: string | undefined, env: NodeJS.ProcessEnv) {
  const [chosen, name] = port !== undefined ? [port, '--port'] : [env.PORT, 'PORT'];
  if (chosen === undefined || (name === 'PORT' && /^0*$/.test(chosen))) return undefined;
  if (!/^\d+$/.test(chosen) || Number(chosen) < 1 || Number(chosen) > 65_535)
    throw new KeysError(`${name} must be a port number from 1 to 65535, not "${chosen}".`);
  return { port: String(Number(chosen)), name };
}

/** The running local server: the one on the chosen port, else the only one. */
function chooseServer(servers: ServerRecord[], choice: ReturnType<typeof chosenPort>): ServerRecord {
  const urls = servers.map((server) => server.url).join(', ');
  if (choice) {
    const onPort = servers.find((server) => portOf(server.url) === choice.port);
    if (onPort) return onPort;
    if (servers.length === 0) throw new KeysError(NO_SERVER);
    throw new KeysError(`no running npm start on port ${choice.port} (${choice.name}); running: ${urls}.`);
  }
  const [only, ...others] = servers;
  if (!only) throw new KeysError(NO_SERVER);
  if (others.length > 0)
    throw new KeysError(`several npm start are running (${urls}): choose one with --port.`);
  return only;
}

/** Where the keys are, in the order of whereHelp. */
export async function findKeys(choice: TargetChoice, env: NodeJS.ProcessEnv): Promise<KeysTarget> {
  if (choice.stage !== undefined) {
    if (choice.port !== undefined) throw new KeysError('--port picks a local server: not with --stage.');
    return openStage(choice.stage);
  }
  const options = { ...localDynamoDbOptions(env), createTable: choice.createTable };
  const chosenFirst = options.endpoint ? 'AWS_ENDPOINT_URL_DYNAMODB' : options.dataDir && 'PETSTORE_DATA_DIR';
  if (choice.port !== undefined && chosenFirst)
    throw new KeysError(
      `--port picks a running npm start, but ${chosenFirst} is set: unset it, or leave out --port.`,
    );
  if (options.endpoint) {
    const target = await openLocal(options);
    return { ...target, description: `${target.where} (AWS_ENDPOINT_URL_DYNAMODB)` };
  }
  // PETSTORE_SERVERS_DIR: the records in another directory, for the servers and this command alike.
  const servers = runningServers(env.PETSTORE_SERVERS_DIR || undefined);
  const { dataDir } = options;
  if (dataDir) {
    // A running server holds the directory's lock: its DynamoDB is the one way in meanwhile.
    const server = servers.find((record) => record.dataDir && samePath(record.dataDir, dataDir));
    if (!server) {
      // The embedded DynamoDB of this process listens on a port of its own: the directory names it.
      const where = `table ${options.tableName ?? DEFAULT_TABLE_NAME} in PETSTORE_DATA_DIR ${dataDir}`;
      return { ...(await openLocal(options)), description: where, where };
    }
    const tableName = options.tableName ?? server.tableName;
    const target = await openServerDynamoDb({ ...options, dataDir: undefined, tableName }, server);
    return {
      ...target,
      description: `table ${tableName} of the running server ${server.url} (PETSTORE_DATA_DIR ${dataDir})`,
    };
  }
  const server = chooseServer(servers, chosenPort(choice.port, env));
  const target = await openServerDynamoDb({ ...options, tableName: server.tableName }, server);
  return { ...target, description: `table ${server.tableName} of the running server ${server.url}` };
}
