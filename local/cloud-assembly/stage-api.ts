// A synthesized stage served locally: the API read from the template, each function's bundled asset run
// in child processes with the template's handler, environment, timeout, memory and reserved concurrency,
// and DynamoDB behind a proxy that checks every call against the function's role. References resolve to
// local values: the table to the local table, each secret to a random value kept in that table.
import { createApiGateway } from '#local/api-gateway/gateway.ts';
import type { ApiGateway } from '#local/api-gateway/gateway.ts';
import { createTemplateReader, readTemplate } from '#local/cloud-assembly/template.ts';
import type { LocalValue } from '#local/cloud-assembly/template.ts';
import { startIamCheckedDynamoDb } from '#local/iam/checked-dynamodb.ts';
import type { DynamoDbCaller } from '#local/iam/checked-dynamodb.ts';
import { childProcessRunner } from '#local/lambda/child-process-runner.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '#local/iam/account.ts';
import type { LambdaFunctionSpec, ChildProcessRunnerOptions } from '#local/lambda/child-process-runner.ts';
import type { LocalDynamoDb } from '#local/dynamodb/connect.ts';
import type { StageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import { tableSecret } from '#local/dynamodb/cursor-secret.ts';
import { apiDefinitionFromTemplate } from '#local/cloud-assembly/template-api-definition.ts';
import { circularDependencyProblem } from '#local/cloud-assembly/template-dependencies.ts';
import {
  resolveSecrets,
  roleStatements,
  tableKeySchemas,
  templateFunctions,
} from '#local/cloud-assembly/template-functions.ts';
import type { TemplateFunction } from '#local/cloud-assembly/template-functions.ts';

export type StageApi = { gateway: ApiGateway; dynamoDb: LocalDynamoDb; close(): Promise<void> };

export type StageApiOptions = {
  assembly: StageAssembly;
  /** Where the stage's table lives: its name comes from the template. */
  openDynamoDb(tableName: string): Promise<LocalDynamoDb>;
  log?: ChildProcessRunnerOptions['log'];
  instanceStarted?: ChildProcessRunnerOptions['instanceStarted'];
};

const SECRET_ARN_PREFIX = `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:`;

/**
 * The table's Ref is its name: the template's, else the one CloudFormation would give it,
 * `<stack>-<logical id>` (without the random suffix). A secret's Ref is an ARN that names its
 * logical id.
 */
const localValuesOf =
  (stackName: string): LocalValue =>
  (logicalId, resource, attribute) => {
    if (resource.Type === 'AWS::DynamoDB::Table') {
      const name = String(resource.Properties?.TableName ?? `${stackName}-${logicalId}`);
      return attribute === undefined
        ? name
        : `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}`;
    }
    if (resource.Type === 'AWS::SecretsManager::Secret') return `${SECRET_ARN_PREFIX}${logicalId}`;
    return undefined;
  };

/** The version an alias invokes here: the stage run publishes each function once. */
const LOCAL_VERSION = '1';

/**
 * What Lambda puts in every function's environment, beside the function's own variables. Called
 * through an alias (`target` is `<function>:<alias>`), the instance runs the alias's version and
 * its context's invokedFunctionArn names the alias, as in Lambda.
 */
function lambdaEnvironment(
  fn: TemplateFunction,
  target: string,
  accessKeyId: string,
  dynamoDbEndpoint: string,
) {
  const qualified = target !== fn.logicalId;
  return {
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: qualified ? LOCAL_VERSION : '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    PETSTORE_LOCAL_FUNCTION_ARN: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${target}`,
    TZ: ':UTC',
    // The role's credentials, as Lambda hands them over; the access key names the role to IAM.
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SESSION_TOKEN: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamoDbEndpoint,
  };
}

export async function startStageApi({
  assembly,
  openDynamoDb,
  ...output
}: StageApiOptions): Promise<StageApi> {
  const template = readTemplate(assembly.templateFile);
  // What CloudFormation would reject never runs here either.
  const problem = circularDependencyProblem(template);
  if (problem) throw new Error(problem);
  const reader = createTemplateReader(template, localValuesOf(assembly.stackName));
  const definition = apiDefinitionFromTemplate(reader);
  const tables = tableKeySchemas(reader);
  const [tableName] = Object.keys(tables);
  if (tableName === undefined) throw new Error('the template has no DynamoDB table.');
  const dynamoDb = await openDynamoDb(tableName);
  const functions = templateFunctions(reader, assembly.assemblyDir);

  const secretValues = new Map<string, string>();
  for (const reference of new Set(functions.flatMap((fn) => fn.secretReferences))) {
    secretValues.set(
      reference,
      await tableSecret(dynamoDb.table, reference.replace(SECRET_ARN_PREFIX, 'SECRET#')),
    );
  }
  const callers: Record<string, DynamoDbCaller> = {};
  for (const fn of functions) {
    callers[`LOCAL${fn.roleId}`] = {
      principalArn: `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${fn.roleId}/${fn.logicalId}`,
      statements: roleStatements(reader, fn.roleId),
    };
  }
  const dynamoDbProxy = await startIamCheckedDynamoDb(dynamoDb.endpoint, { callers, tables });

  // One pool per alias or function the API invokes, named as the definition names it.
  const targets = new Set([
    definition.authorizer.functionName,
    ...definition.methods.flatMap(({ integration }) =>
      integration.type === 'AWS_PROXY' ? [integration.functionName] : [],
    ),
  ]);
  const specs: Record<string, LambdaFunctionSpec> = {};
  for (const target of targets) {
    const fn = functions.find(({ logicalId }) => logicalId === target.split(':')[0]);
    if (!fn) throw new Error(`the template has no function ${target}.`);
    const variables = Object.fromEntries(
      Object.entries(fn.variables).map(([name, value]) => [
        name,
        resolveSecrets(String(value), (reference) => secretValues.get(reference) ?? ''),
      ]),
    );
    specs[target] = {
      taskRoot: fn.taskRoot,
      handler: fn.handler,
      environment: {
        ...variables,
        ...lambdaEnvironment(fn, target, `LOCAL${fn.roleId}`, dynamoDbProxy.endpoint),
      },
      timeoutSeconds: fn.timeoutSeconds,
      memoryMb: fn.memoryMb,
      reservedConcurrency: fn.reservedConcurrency,
    };
  }
  const runner = childProcessRunner(specs, output);
  return {
    gateway: createApiGateway({ definition, functions: runner }),
    dynamoDb,
    close: async () => {
      await runner.close();
      await dynamoDbProxy.close();
      await dynamoDb.close();
    },
  };
}
