// The order CloudFormation would create each synthesized template in
// (local/cloud-assembly/template-dependencies.ts): no circular dependency in either stage or in the
// deploy role's stack. CloudFormation rejects a template with one before it creates anything, and the
// checks of properties cannot see it.
import { describe, expect, it } from '@jest/globals';
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';
import { circularDependencyProblem } from '#local/cloud-assembly/template-dependencies.ts';
import { putStageRefBackOnApiAlarm } from '#test/support/rollout-circle.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';

const templateOf = (stage: SynthesizedStage) =>
  structuredClone(stage.template.toJSON()) as CloudTemplate & { Resources: Record<string, object> };

describe('circular dependencies', () => {
  it.each([synthesized.staging, synthesized.production])('the $name template has none', (stage) => {
    expect(circularDependencyProblem(templateOf(stage))).toBeUndefined();
  });

  it('the deploy role template has none', () => {
    const { template } = synthesized.deployAccess;
    expect(circularDependencyProblem(template.toJSON() as CloudTemplate)).toBeUndefined();
  });

  it.each([synthesized.staging, synthesized.production])(
    "$name: a method's alarm naming the stage by reference closes the circle through the rollout",
    (stage) => {
      const template = templateOf(stage);
      const { alarmId, stageId } = putStageRefBackOnApiAlarm(template);

      const problem = circularDependencyProblem(template) ?? '';
      expect(problem).toMatch(/^CloudFormation would reject this template: circular dependency between /);
      for (const [id] of [[alarmId], [stageId], ...stage.all('AWS::ApiGateway::Deployment')])
        expect(problem).toContain(id);
      // Through the group that watches the alarm and the alias whose UpdatePolicy names that group.
      for (const type of ['AWS::CodeDeploy::DeploymentGroup', 'AWS::Lambda::Alias'])
        expect(stage.all(type).filter(([id]) => problem.includes(id))).toHaveLength(1);
    },
  );
});
