// What each function may do on the table: exactly the calls its code makes, each limited with
// dynamodb:LeadingKeys to the partitions it touches. listPets and getPet cannot read API key hashes
// or idempotency records, createPet cannot read keys, the authorizer can read nothing but keys.
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import {
  API_KEY_PARTITION,
  COUNTER_PARTITION,
  IDEMPOTENCY_PARTITIONS,
  PET_PARTITIONS,
  SPREAD_COUNTER_PARTITIONS,
  STATUS_INDEX,
} from '#shared/store/table.ts';

export type TableAccess = 'readPets' | 'createPets' | 'readApiKeys';

type Rule = { actions: string[]; partitions: string[] } | { actions: string[]; statusIndex: true };

const RULES: Record<TableAccess, Rule[]> = {
  readPets: [
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], partitions: [PET_PARTITIONS] },
    // The id counter's count of blocks: which shards hold pets yet.
    { actions: ['dynamodb:GetItem'], partitions: [COUNTER_PARTITION] },
    // Only pets carry the index's keys, so the index holds nothing else to protect.
    { actions: ['dynamodb:Query'], statusIndex: true },
  ],
  createPets: [
    // The pet's conditional Put and the read-back of a taken id; claiming and reading a record.
    {
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
      partitions: [PET_PARTITIONS, IDEMPOTENCY_PARTITIONS],
    },
    // Whether the first counter is done with (every shard has pets).
    { actions: ['dynamodb:GetItem'], partitions: [COUNTER_PARTITION] },
    // Leasing a block of ids from a counter; relocking and completing a record.
    {
      actions: ['dynamodb:UpdateItem'],
      partitions: [COUNTER_PARTITION, SPREAD_COUNTER_PARTITIONS, IDEMPOTENCY_PARTITIONS],
    },
  ],
  readApiKeys: [{ actions: ['dynamodb:GetItem'], partitions: [API_KEY_PARTITION] }],
};

function statement(table: ITable, rule: Rule): PolicyStatement {
  if ('statusIndex' in rule) {
    return new PolicyStatement({
      actions: rule.actions,
      resources: [`${table.tableArn}/index/${STATUS_INDEX.name}`],
    });
  }
  return new PolicyStatement({
    actions: rule.actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': rule.partitions } },
  });
}

export function grantTableAccess(grantee: IGrantable, table: ITable, access: TableAccess): void {
  for (const rule of RULES[access]) grantee.grantPrincipal.addToPrincipalPolicy(statement(table, rule));
}
