// What each function's environment holds, said once: the stack writes the settings its manifest names
// from the stage's values, the bench gives its processes the same, and each function's Lambda handler
// reads them at cold start (lambdaHandler). A missing or bad setting fails there, before any request.
import { FUNCTION_MANIFESTS, LAMBDA_VARIABLES } from '#functions/manifests.ts';
import type { FunctionName, LambdaSetting } from '#functions/manifests.ts';
import { requireEnv } from '#shared/env.ts';
import { CURSOR_SECRET_MIN_LENGTH } from '#shared/http/pagination.ts';
import { parseKeyLimits, rateLimitHeaders } from '#shared/http/rate-limit-policy.ts';
import type { KeyLimits } from '#shared/http/rate-limit-policy.ts';
import type { HeaderMap } from '#shared/http/json-response.ts';
import { createObservability } from '#shared/observability.ts';
import type { Observability } from '#shared/observability.ts';
import { createDocumentClient, createTableClient } from '#shared/store/dynamodb.ts';
import type { TableClient } from '#shared/store/dynamodb.ts';
import { MAX_PET_SHARDS } from '#shared/store/table.ts';

/** A function's environment from the stage's values (CloudFormation tokens, in the stack). */
export function lambdaEnvironment(
  name: FunctionName,
  values: Record<LambdaSetting, string>,
): Record<string, string> {
  return Object.fromEntries(
    FUNCTION_MANIFESTS[name].settings.map((setting) => [LAMBDA_VARIABLES[setting], values[setting]]),
  );
}

/** How each setting is read and checked. */
const SETTING_READERS = {
  tableName: () => requireEnv(LAMBDA_VARIABLES.tableName),
  stage: () => requireEnv(LAMBDA_VARIABLES.stage),
  cursorSecret: () => requireEnv(LAMBDA_VARIABLES.cursorSecret, { minLength: CURSOR_SECRET_MIN_LENGTH }),
  petShards: () => petShardsFromEnvironment(),
  keyLimits: () => keyLimitsFromEnvironment(),
} satisfies Record<LambdaSetting, () => unknown>;

type Settings = { [Setting in LambdaSetting]: ReturnType<(typeof SETTING_READERS)[Setting]> };
type SettingsOf<Name extends FunctionName> = Pick<
  Settings,
  (typeof FUNCTION_MANIFESTS)[Name]['settings'][number]
>;

/**
 * What a function's composition builds its handler from, in Lambda (fromLambdaEnvironment) and in a
 * local process (local/lambda/source-functions.ts) alike: the settings it names, the table client, its
 * logs and metrics, and the headers of the stage's answers.
 */
export type FunctionParts<Setting extends LambdaSetting = never> = {
  settings: Pick<Settings, Setting>;
  table: TableClient;
  observability: Observability;
  stageHeaders?: HeaderMap;
  /** What only a local process turns: the id counter a create leases from, getPet's cache size. */
  tuning?: { pickCounter?: () => number; petReadCacheEntries?: number };
};

/**
 * The settings the function's manifest names, each read and checked; the table client on its table
 * (one DynamoDB client per process), its logs and metrics, and the headers of the stage's answers.
 */
function fromLambdaEnvironment<Name extends FunctionName>(name: Name) {
  const settings = Object.fromEntries(
    FUNCTION_MANIFESTS[name].settings.map((setting) => [setting, SETTING_READERS[setting]()]),
  ) as SettingsOf<Name>;
  // Every manifest's settings start with these two.
  const { tableName, stage, keyLimits } = settings as unknown as {
    tableName: string;
    stage: string;
    keyLimits?: KeyLimits;
  };
  return {
    settings,
    table: createTableClient({ tableName, documentClient: createDocumentClient() }),
    observability: createObservability({ metrics: { stage } }),
    stageHeaders: keyLimits && rateLimitHeaders(keyLimits),
  };
}

/**
 * A function's Lambda handler, its composition on the parts its environment gives. In Lambda
 * (AWS_LAMBDA_FUNCTION_NAME set) it is composed when the module loads, at cold start; anywhere else
 * importing the module reads nothing, and the handler is composed at its first call.
 */
export function lambdaHandler<Name extends FunctionName, Handler extends (...args: never[]) => unknown>(
  name: Name,
  compose: (parts: ReturnType<typeof fromLambdaEnvironment<Name>>) => Handler,
): Handler {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) return compose(fromLambdaEnvironment(name));
  let composed: Handler | undefined;
  return ((...args) => (composed ??= compose(fromLambdaEnvironment(name)))(...args)) as Handler;
}

export function keyLimitsFromEnvironment(): KeyLimits {
  const name = LAMBDA_VARIABLES.keyLimits;
  const limits = parseKeyLimits(requireEnv(name));
  if (!limits)
    throw new Error(
      `Environment variable ${name} must be JSON {rateLimit, burstLimit, requestsPerDay}, each above 0.`,
    );
  return limits;
}

export function petShardsFromEnvironment(): number {
  const shards = Number(requireEnv(LAMBDA_VARIABLES.petShards));
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_PET_SHARDS)
    throw new Error(
      `Environment variable ${LAMBDA_VARIABLES.petShards} must be a whole number from 1 to ${MAX_PET_SHARDS}.`,
    );
  return shards;
}
