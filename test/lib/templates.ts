// Reading a synthesized template the way API Gateway and IAM will: the path of each method, the
// statements of each function's role, and the JSON of mapping templates.
import { expect } from '@jest/globals';
import { FUNCTION_NAMES } from '#functions/manifests.ts';
import type { FunctionName } from '#functions/manifests.ts';
import { ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';

/** Each function's fixed logical id, which sam local commands name: listPets -> ListPetsFunction. */
export const FUNCTION_ID_OF = Object.fromEntries(
  FUNCTION_NAMES.map((name) => [name, `${name.charAt(0).toUpperCase()}${name.slice(1)}Function`]),
) as Record<FunctionName, string>;
export const FUNCTION_IDS = Object.values(FUNCTION_ID_OF);
export const ROUTE_FUNCTION_IDS = Object.fromEntries(
  ROUTES.map(({ operationId }) => [operationId, FUNCTION_ID_OF[operationId]]),
) as Record<OperationId, string>;

export const ref = (logicalId: string) => ({ Ref: logicalId });
export const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/** The logical id in a { Ref } or { Fn::GetAtt } value. */
export function referencedId(value: unknown): string {
  const reference = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return defined(reference.Ref ?? reference['Fn::GetAtt']?.[0], `a reference in ${JSON.stringify(value)}`);
}

/** Each method of the API with the path of its resource ('/', '/pets', '/{proxy+}', ...). */
export function methodsByPath(stage: SynthesizedStage) {
  const pathOf = (resourceId: unknown): string => {
    if (typeof resourceId === 'object' && resourceId !== null && 'Fn::GetAtt' in resourceId) return '/';
    const { Properties } = stage.resource(referencedId(resourceId));
    const parent = pathOf(Properties.ParentId);
    return `${parent === '/' ? '' : parent}/${String(Properties.PathPart)}`;
  };
  return stage.all('AWS::ApiGateway::Method').map(([, method]) => ({
    path: pathOf(method.Properties.ResourceId),
    httpMethod: String(method.Properties.HttpMethod),
    properties: method.Properties,
  }));
}

/** The one method of this HTTP method (ANY included) at this path. */
export function methodAt(stage: SynthesizedStage, path: string, httpMethod: string): Properties {
  const found = methodsByPath(stage).filter(
    (method) => method.path === path && method.httpMethod === httpMethod,
  );
  expect(found).toHaveLength(1);
  return defined(found[0], `${httpMethod} ${path}`).properties;
}

/**
 * The logical id of the function's alias `live`, which must point at a published version of that
 * same function: what API Gateway invokes and CodeDeploy moves.
 */
export function liveAliasOf(stage: SynthesizedStage, functionId: string): string {
  const aliases = stage
    .all('AWS::Lambda::Alias')
    .filter(([, alias]) => referencedId(alias.Properties.FunctionName) === functionId);
  expect(aliases.map(([, alias]) => alias.Properties.Name)).toEqual(['live']);
  const [aliasId, alias] = defined(aliases[0], `the alias of ${functionId}`);
  const version = stage.resource(referencedId(alias.Properties.FunctionVersion));
  expect(version.Type).toBe('AWS::Lambda::Version');
  expect(version.Properties.FunctionName).toEqual(ref(functionId));
  return aliasId;
}

export const environmentOf = (stage: SynthesizedStage, functionId: string) =>
  (stage.resource(functionId).Properties.Environment as { Variables: Properties }).Variables;

export const logGroupOf = (stage: SynthesizedStage, functionId: string) =>
  referencedId((stage.resource(functionId).Properties.LoggingConfig as Properties).LogGroup);

export const roleOf = (stage: SynthesizedStage, functionId: string) =>
  referencedId(stage.resource(functionId).Properties.Role);

export const sortStatements = (statements: unknown[]) =>
  [...statements].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The statements of the one policy attached to this function's role (sorted, for comparison). */
export function roleStatements(stage: SynthesizedStage, functionId: string): unknown[] {
  const roles = JSON.stringify([ref(roleOf(stage, functionId))]);
  const policies = stage
    .all('AWS::IAM::Policy')
    .filter(([, policy]) => JSON.stringify(policy.Properties.Roles) === roles);
  const [[, policy] = [], ...others] = policies;
  if (!policy || others.length > 0) throw new Error(`${functionId}: ${policies.length} policies`);
  return sortStatements((policy.Properties.PolicyDocument as { Statement: unknown[] }).Statement);
}

/**
 * A mapping template parsed as JSON. API Gateway's own Error bodies are plain JSON text
 * (lib/api/gateway-responses.ts refuses the '$' and '#' that Velocity would read), so they render as
 * they stand.
 */
export const templateJson = (templates: unknown, contentType = 'application/json'): unknown =>
  JSON.parse(defined((templates as Record<string, string>)[contentType], contentType));
