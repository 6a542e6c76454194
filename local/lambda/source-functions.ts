// Every function of functions/manifests.ts from its sources, for a process that runs them all: each
// built by its module's own composition, on the parts given here, so each has its own pet store, as
// each Lambda function has (what one learns of the table's shards, the others do not). Configuration
// comes in; nothing reads the environment.
import { composeAuthorizer } from '#functions/authorizer.ts';
import { composeCreatePet } from '#functions/create-pet.ts';
import { composeGetPet } from '#functions/get-pet.ts';
import type { FunctionParts } from '#functions/lambda-environment.ts';
import { composeListPets } from '#functions/list-pets.ts';
import type { FunctionName } from '#functions/manifests.ts';
import { createObservability } from '#shared/observability.ts';
import { PET_SHARDS } from '#shared/store/table.ts';

export type SourceFunctionsConfig = Omit<FunctionParts, 'settings' | 'observability'> & {
  cursorSecret: string;
  /** The shards the table's pets are spread over: the stages' count unless told otherwise. */
  petShards?: number;
  /** No CloudWatch reads a local process's output: logs only, unless told otherwise. */
  observability?: FunctionParts['observability'];
};

export function createSourceFunctions({
  cursorSecret,
  petShards = PET_SHARDS,
  observability = createObservability({ metrics: false }),
  ...parts
}: SourceFunctionsConfig) {
  const given = { settings: { cursorSecret, petShards }, observability, ...parts };
  // The type checker asks for a new function here.
  return {
    listPets: composeListPets(given),
    createPet: composeCreatePet(given),
    getPet: composeGetPet(given),
    authorizer: composeAuthorizer(given),
  } satisfies Record<FunctionName, unknown>;
}

export type SourceFunctions = ReturnType<typeof createSourceFunctions>;
