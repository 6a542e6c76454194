// The API as `npm start` serves it: the gateway defined by the shared modules the stack is built
// from, in front of the functions' sources run in this process.
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import { createApiGateway } from '#local/api-gateway/gateway.ts';
import type { ApiGateway } from '#local/api-gateway/gateway.ts';
import { inProcessRunner } from '#local/lambda/in-process-runner.ts';
import type { SourceFunctions } from '#local/lambda/source-functions.ts';

export const sourceApiGateway = (functions: SourceFunctions): ApiGateway =>
  createApiGateway({ definition: apiDefinitionFromModules(), functions: inProcessRunner(functions) });
