// Reading a synthesized template the way API Gateway and IAM will: the path of each method, the
// statements of each function's role, and mapping templates rendered with sample $context values.
import { defined } from './synthesize.ts';
import type { Properties, SynthesizedStage } from './synthesize.ts';

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

/** Sample values for the $context variables a template may use, as API Gateway would put them. */
const SAMPLE_CONTEXT: Record<string, string> = {
  '$context.requestId': 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
  '$context.error.message': 'Unauthorized',
  '$context.error.messageString': '"Unauthorized"',
  '$context.error.responseType': 'UNAUTHORIZED',
  '$context.stage': 'v1',
};

export function renderTemplate(template: string): string {
  return template.replace(/\$context\.[A-Za-z.]+[A-Za-z]/g, (variable) =>
    defined(SAMPLE_CONTEXT[variable], `a sample value for ${variable}`),
  );
}

/** A rendered template, parsed as JSON. */
export const renderJson = (templates: unknown, contentType = 'application/json'): unknown =>
  JSON.parse(renderTemplate(defined((templates as Record<string, string>)[contentType], contentType)));
