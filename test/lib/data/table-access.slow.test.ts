// What each function's role allows (shared/store/table-access.ts, given to each function by its
// entry in functions/manifests.ts, made statements by lib/data/table-access.ts): every one, pinned.
import { describe, expect, test } from '@jest/globals';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import {
  FUNCTION_IDS,
  arnOf,
  logGroupOf,
  roleOf,
  roleStatements,
  sortStatements,
} from '#test/lib/templates.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const [tableId] = stage.only('AWS::DynamoDB::Table');

  describe('IAM: each function role holds exactly its log group, X-Ray and its table access', () => {
    const onTable = (actions: string[], partitions: string[]) => ({
      Action: actions.length === 1 ? actions[0] : actions,
      Effect: 'Allow',
      Resource: arnOf(tableId),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } },
    });
    const onStatusIndex = {
      Action: 'dynamodb:Query',
      Effect: 'Allow',
      Resource: { 'Fn::Join': ['', [arnOf(tableId), '/index/byStatus']] },
    };
    const readPets = [
      onTable(['dynamodb:GetItem', 'dynamodb:Query'], ['PET#*']),
      onTable(['dynamodb:GetItem'], ['COUNTER']),
      onStatusIndex,
    ];
    const tableAccess: Record<string, unknown[]> = {
      ListPetsFunction: readPets,
      GetPetFunction: readPets,
      CreatePetFunction: [
        onTable(['dynamodb:GetItem', 'dynamodb:PutItem'], ['PET#*', 'IDEMPOTENCY#*']),
        onTable(['dynamodb:GetItem'], ['COUNTER']),
        onTable(['dynamodb:UpdateItem'], ['COUNTER', 'COUNTER#*', 'IDEMPOTENCY#*']),
      ],
      AuthorizerFunction: [onTable(['dynamodb:GetItem'], ['APIKEY'])],
    };

    test.each(FUNCTION_IDS)('%s', (functionId) => {
      expect(roleStatements(stage, functionId)).toEqual(
        sortStatements([
          {
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Effect: 'Allow',
            Resource: arnOf(logGroupOf(stage, functionId)),
          },
          {
            Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
            Effect: 'Allow',
            Resource: '*',
          },
          ...defined(tableAccess[functionId], functionId),
        ]),
      );
      const role = stage.resource(roleOf(stage, functionId)).Properties;
      expect(role).not.toHaveProperty('ManagedPolicyArns');
      expect(role).not.toHaveProperty('Policies');
    });
  });
});
