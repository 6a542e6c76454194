// The single table of shared/store/table.ts: generic string keys, a GSI per list filter, a TTL for
// idempotency records. On-demand, with point-in-time recovery and the stage's warm throughput.
// CloudFormation names it: a fixed name would block any update that replaces the table, and a
// retained table would block re-creating the stack. The tools find it by the TableName output.
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';
import { SECONDARY_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '#shared/store/table.ts';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

export class PetstoreTable extends Table {
  constructor(scope: Construct, id: string, settings: StageSettings) {
    super(scope, id, {
      partitionKey: stringKey(TABLE_KEY.partitionKey),
      sortKey: stringKey(TABLE_KEY.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: settings.deletionProtection,
      removalPolicy: settings.removalPolicy,
      ...(settings.warmThroughput && { warmThroughput: settings.warmThroughput.table }),
    });
    for (const index of SECONDARY_INDEXES) {
      const warmThroughput = settings.warmThroughput?.indexes[index.name];
      this.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType.ALL,
        ...(warmThroughput && { warmThroughput }),
      });
    }
  }
}
