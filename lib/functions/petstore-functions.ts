// The four Lambda functions of a stage: the handler module each is bundled from and what it may do
// on the table. Plain data with type-only imports, so that the benchmark can bundle the same modules,
// and measure what is deployed, without loading the CDK.
import type { TableAccess } from '#lib/data/table-access.ts';
import type { OperationId } from '#shared/http/routes.ts';

/** A route's operationId, or the TOKEN authorizer. */
export type PetstoreFunctionName = OperationId | 'authorizer';

type PetstoreFunctionSpec = {
  /** The handler module, relative to the project root. */
  entry: string;
  tableAccess: TableAccess;
  /** It signs and checks pagination cursors, so the stack hands it the cursor secret. */
  readsCursorSecret?: true;
  /** It walks the pets' shards or leases ids for them, so the stack hands it the stage's shard count. */
  readsPetShards?: true;
};

export const PETSTORE_FUNCTIONS: Record<PetstoreFunctionName, PetstoreFunctionSpec> = {
  listPets: {
    entry: 'functions/list-pets.ts',
    tableAccess: 'readPets',
    readsCursorSecret: true,
    readsPetShards: true,
  },
  createPet: { entry: 'functions/create-pet.ts', tableAccess: 'createPets', readsPetShards: true },
  getPet: { entry: 'functions/get-pet.ts', tableAccess: 'readPets' },
  authorizer: { entry: 'functions/authorizer.ts', tableAccess: 'readApiKeys' },
};
