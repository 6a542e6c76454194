// The stack as a whole (lib/petstore-stack.ts): what it outputs, and a synthesis without errors
// or warnings. Each construct's resources have checks of their own beside this one.
import { describe, expect, test } from '@jest/globals';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { STAGE_NAME } from '#shared/http/routes.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { ref } from '#test/lib/templates.ts';
import { readRepoJson } from '#test/support/repository.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, template } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');
  const [apiId] = stage.only('AWS::ApiGateway::RestApi');

  test("outputs: the base address ending in /v1, the table name and the stage's region", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'AuthorizerDeploymentGroup',
      'CreatePetDeploymentGroup',
      'DashboardUrl',
      'FunctionNames',
      'GetPetDeploymentGroup',
      'ListPetsDeploymentGroup',
      'ProbeKeySecretArn',
      'Region',
      'RolloutApplication',
      'TableName',
      'UsagePlanId',
    ]);
    const url = outputs.ApiUrl?.Value as { 'Fn::Join': [string, unknown[]] };
    const parts = url['Fn::Join'][1];
    expect(parts[0]).toBe('https://');
    expect(parts[1]).toEqual(ref(apiId));
    expect(parts.at(-1)).toBe(`/${STAGE_NAME}`);
    expect(outputs.TableName?.Value).toEqual(ref(tableId));
    // cdk.json's setting, which the stack is bound to: npm run keys reads it back from the outputs.
    const { context } = readRepoJson('cdk.json') as { context: Record<string, unknown> };
    expect(outputs.Region?.Value).toBe(context[`${name}:region`]);
    expect(synthesized.stages[name].stack.region).toBe(outputs.Region?.Value);
    // What npm run prune-versions reads: the four functions, by the names CloudFormation gives them.
    const names = outputs.FunctionNames?.Value as { 'Fn::Join': [string, unknown[]] };
    expect(names['Fn::Join']).toEqual([
      ',',
      ['ListPetsFunction', 'CreatePetFunction', 'GetPetFunction', 'AuthorizerFunction'].map(ref),
    ]);
  });

  test('synthesis reports no error or warning', () => {
    const annotations = Annotations.fromStack(synthesized.stages[name].stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });
});
