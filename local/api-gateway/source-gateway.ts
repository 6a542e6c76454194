// The API as `npm start` serves it: the gateway defined by the shared modules the stack is built
// from, in front of the functions' sources run in this process.
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import type { UsagePlanDefinition } from '#local/api-gateway/definition.ts';
import { createApiGateway } from '#local/api-gateway/gateway.ts';
import type { ApiGateway } from '#local/api-gateway/gateway.ts';
import { inProcessRunner } from '#local/lambda/in-process-runner.ts';
import type { SourceFunctions } from '#local/lambda/source-functions.ts';

/** `usagePlan`: each key's limits, as a stage's usage plan sets them; none unless given. */
export const sourceApiGateway = (functions: SourceFunctions, usagePlan?: UsagePlanDefinition): ApiGateway =>
  createApiGateway({
    definition: { ...apiDefinitionFromModules(), usagePlan },
    functions: inProcessRunner(functions),
  });
