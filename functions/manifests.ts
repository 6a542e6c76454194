// Every Lambda function of the service, each described once: a route's function is named by its
// operationId (shared/http/routes.ts); its module, the settings its Lambda handler reads,
// what it may do on the table, and the requests a new version must answer before taking traffic.
// Plain data: the stack, the local runners, the bench and the rollout hooks read it.
import type { OperationId } from '#shared/http/routes.ts';
import type { TableAccess } from '#shared/store/table-access.ts';

/** Each setting a function can be given, by the environment variable that carries it. */
export const LAMBDA_VARIABLES = {
  tableName: 'PETSTORE_TABLE_NAME',
  /** The stage the function serves, which its metrics carry (shared/observability.ts). */
  stage: 'PETSTORE_STAGE',
  /** Signs and checks pagination cursors (a secret of the stage). */
  cursorSecret: 'PETSTORE_CURSOR_SECRET',
  /** The shards of the stage's table (lib/stage-settings.ts): walked by lists, leased by creates. */
  petShards: 'PETSTORE_PET_SHARDS',
  /** The usage plan's limits on each key, as JSON (shared/http/rate-limit-policy.ts). */
  keyLimits: 'PETSTORE_KEY_LIMITS',
} as const;
export type LambdaSetting = keyof typeof LAMBDA_VARIABLES;

/** A request a new version answers rightly whatever the table holds, writing nothing. */
export type RolloutRequest = {
  what: string;
  method: string;
  resource: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  /** The right answer: this status, and a JSON array or an Error object with this code. */
  answer: { status: number; body: 'an array' | { code: string } };
};

export type FunctionManifest = {
  /** The function's module, relative to the project root: what is bundled and deployed. */
  entry: string;
  /** What its Lambda handler reads from its environment (functions/lambda-environment.ts). */
  settings: readonly ['tableName', 'stage', ...Exclude<LambdaSetting, 'tableName' | 'stage'>[]];
  tableAccess: TableAccess;
  /** Its rollout check (functions/rollout-checks.ts): requests, or the authorizer's hook key probes. */
  rolloutCheck: RolloutRequest | 'hookKey';
};

/** A pet id no pet will reach: ids are assigned upward from 1. */
export const MISSING_PET_ID = Number.MAX_SAFE_INTEGER;

export const FUNCTION_MANIFESTS = {
  listPets: {
    entry: 'functions/list-pets.ts',
    settings: ['tableName', 'stage', 'cursorSecret', 'petShards', 'keyLimits'],
    tableAccess: 'readPets',
    rolloutCheck: {
      what: 'GET /pets?limit=1',
      method: 'GET',
      resource: '/pets',
      path: '/pets',
      query: { limit: '1' },
      answer: { status: 200, body: 'an array' },
    },
  },
  createPet: {
    entry: 'functions/create-pet.ts',
    settings: ['tableName', 'stage', 'petShards', 'keyLimits'],
    tableAccess: 'createPets',
    // Invalid, so that no pet is created: the body is checked before anything is written.
    rolloutCheck: {
      what: 'POST /pets with an empty name',
      method: 'POST',
      resource: '/pets',
      path: '/pets',
      body: JSON.stringify({ name: '', categoryId: 1 }),
      answer: { status: 400, body: { code: 'validation_error' } },
    },
  },
  getPet: {
    entry: 'functions/get-pet.ts',
    settings: ['tableName', 'stage', 'keyLimits'],
    tableAccess: 'readPets',
    rolloutCheck: {
      what: `GET /pets/${MISSING_PET_ID}`,
      method: 'GET',
      resource: '/pets/{petId}',
      path: `/pets/${MISSING_PET_ID}`,
      answer: { status: 404, body: { code: 'not_found' } },
    },
  },
  authorizer: {
    entry: 'functions/authorizer.ts',
    settings: ['tableName', 'stage'],
    tableAccess: 'readApiKeys',
    rolloutCheck: 'hookKey',
  },
} as const satisfies Record<OperationId | 'authorizer', FunctionManifest>;

export type FunctionName = keyof typeof FUNCTION_MANIFESTS;
export const FUNCTION_NAMES = /* @__PURE__ */ Object.keys(FUNCTION_MANIFESTS) as FunctionName[];
export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(FUNCTION_MANIFESTS, name);
