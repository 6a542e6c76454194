// The stack as a whole (lib/petstore-stack.ts): what it outputs, and a synthesis without errors
// or warnings. Each construct's resources have checks of their own beside this one.
import { describe, expect, test } from '@jest/globals';
import { STAGE_NAME } from '#shared/http/routes.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, ref } from '#test/lib/templates.ts';
import { readRepoJson } from '#test/support/repository.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, template } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');
  const [apiId] = stage.only('AWS::ApiGateway::RestApi');

  test("outputs: the base address ending in /v1, the table name and the stage's region", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    // Each function's deployment group: ListPetsFunction's is ListPetsDeploymentGroup.
    const deploymentGroups = FUNCTION_IDS.map((id) => id.replace(/Function$/, 'DeploymentGroup'));
    expect(Object.keys(outputs).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'DashboardUrl',
        'FunctionNames',
        'ProbeKeySecretArn',
        'Region',
        'RolloutApplication',
        'TableName',
        'UsagePlanId',
        ...deploymentGroups,
      ].sort(),
    );
    const url = outputs.ApiUrl?.Value as { 'Fn::Join': [string, unknown[]] };
    const parts = url['Fn::Join'][1];
    expect(parts[0]).toBe('https://');
    expect(parts[1]).toEqual(ref(apiId));
    expect(parts.at(-1)).toBe(`/${STAGE_NAME}`);
    expect(outputs.TableName?.Value).toEqual(ref(tableId));
    // cdk.json's setting, which the stack is bound to: npm run keys reads it back from the outputs.
    const { context } = readRepoJson('cdk.json') as { context: Record<string, unknown> };
    expect(outputs.Region?.Value).toBe(context[`${name}:region`]);
    expect(stage.region).toBe(outputs.Region?.Value);
    // What npm run prune-versions reads: every function, by the name CloudFormation gives it.
    const names = outputs.FunctionNames?.Value as { 'Fn::Join': [string, unknown[]] };
    expect(names['Fn::Join']).toEqual([',', FUNCTION_IDS.map(ref)]);
  });

  test('synthesis reports no error or warning', () => {
    const reported = Object.values(stage.metadata())
      .flat()
      .filter(({ type }) => type === 'aws:cdk:error' || type === 'aws:cdk:warning');
    expect(reported).toEqual([]);
  });
});
