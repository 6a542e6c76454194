// The four Lambda functions of a stage: the handler module each is bundled from and what it may do
// on the table (their environment: functions/lambda-environment.ts). Plain data with type-only
// imports, so that the benchmark can bundle the same modules, and measure what is deployed.
import type { TableAccess } from '#lib/data/table-access.ts';
import type { PetstoreFunctionName } from '#functions/lambda-environment.ts';

type PetstoreFunctionSpec = {
  /** The handler module, relative to the project root. */
  entry: string;
  tableAccess: TableAccess;
};

export const PETSTORE_FUNCTIONS: Record<PetstoreFunctionName, PetstoreFunctionSpec> = {
  listPets: { entry: 'functions/list-pets.ts', tableAccess: 'readPets' },
  createPet: { entry: 'functions/create-pet.ts', tableAccess: 'createPets' },
  getPet: { entry: 'functions/get-pet.ts', tableAccess: 'readPets' },
  authorizer: { entry: 'functions/authorizer.ts', tableAccess: 'readApiKeys' },
};
