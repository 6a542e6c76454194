// The stage's table (lib/data/petstore-table.ts), as CloudFormation will build it.
import { describe, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesized } from '#test/lib/synthesize.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { STATUS_INDEX } from '#shared/store/table.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { settings, template, deletionPolicy: kept } = stage;

  test('the table: keys and index of shared/store/table.ts, on demand, PITR, TTL, stage protection', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: kept,
      UpdateReplacePolicy: kept,
      Properties: {
        // CloudFormation's name: a fixed one would block replacing, or re-creating beside a retained one.
        TableName: Match.absent(),
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((attribute) => ({
          AttributeName: attribute,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byStatus',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        DeletionProtectionEnabled: settings.deletionProtection,
      },
    });
  });

  test('warm throughput: the table and its index pre-warmed as the stage says, or left to DynamoDB', () => {
    const warm = settings.warmThroughput;
    const units = (value: { readUnitsPerSecond: number; writeUnitsPerSecond: number } | undefined) =>
      value
        ? { ReadUnitsPerSecond: value.readUnitsPerSecond, WriteUnitsPerSecond: value.writeUnitsPerSecond }
        : Match.absent();
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      WarmThroughput: units(warm?.table),
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'byStatus', WarmThroughput: units(warm?.indexes[STATUS_INDEX.name]) }),
      ],
    });
  });
});
