// The CDK app (lib/petstore-app.ts): cdk-nag's AWS Solutions rules over every stack, each finding
// acknowledged with its reason.
import { describe, expect, test } from '@jest/globals';
import { Validations } from 'aws-cdk-lib';
import { validationFailures } from '#lib/validation-report.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties } from '#test/lib/synthesize.ts';
import { PROJECT_CDK_OUT } from '#test/support/project-assembly.ts';

const STACKS = [synthesized.staging, synthesized.production, synthesized.deployAccess];

describe('cdk-nag AwsSolutions', () => {
  test('finds nothing that is not acknowledged', () => {
    // The CDK writes the report at the app's top level only.
    expect(validationFailures(PROJECT_CDK_OUT)).toEqual([]);
  });

  test('every acknowledgement gives its reason', () => {
    const reasons = STACKS.flatMap(({ metadata }) => Object.values(metadata()).flat())
      .filter(({ type }) => type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap(({ data }) => Object.values(data as Properties));
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(String(reason).length).toBeGreaterThan(40);
  });
});
