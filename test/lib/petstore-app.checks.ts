// The CDK app (lib/petstore-app.ts): cdk-nag's AWS Solutions rules over both stages, every finding
// acknowledged with its reason.
import { describe, expect, test } from '@jest/globals';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties } from '#test/lib/synthesize.ts';

describe('cdk-nag AwsSolutions', () => {
  test('finds nothing that is not acknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(synthesized.app);
    expect(
      report.violations.map(({ ruleName, violatingResources }) => ({ ruleName, violatingResources })),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  test('every acknowledgement gives its reason', () => {
    const reasons: unknown[] = [];
    const visit = (construct: IConstruct) => {
      for (const { type, data } of construct.node.metadata) {
        if (type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          reasons.push(...Object.values(data as Properties));
      }
      construct.node.children.forEach(visit);
    };
    visit(synthesized.app);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(String(reason).length).toBeGreaterThan(40);
  });
});
