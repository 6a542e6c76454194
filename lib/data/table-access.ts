// Each function's table access (shared/store/table-access.ts) as IAM statements on its role: the
// partitions in a dynamodb:LeadingKeys condition, the indexes by their ARNs.
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { TABLE_ACCESS_RULES } from '#shared/store/table-access.ts';
import type { TableAccess, TableAccessRule } from '#shared/store/table-access.ts';
import { SECONDARY_INDEXES } from '#shared/store/table.ts';

function statement(table: ITable, rule: TableAccessRule): PolicyStatement {
  if ('indexes' in rule) {
    return new PolicyStatement({
      actions: rule.actions,
      resources: SECONDARY_INDEXES.map(({ name }) => `${table.tableArn}/index/${name}`),
    });
  }
  return new PolicyStatement({
    actions: rule.actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': rule.partitions } },
  });
}

export function grantTableAccess(grantee: IGrantable, table: ITable, access: TableAccess): void {
  for (const rule of TABLE_ACCESS_RULES[access])
    grantee.grantPrincipal.addToPrincipalPolicy(statement(table, rule));
}
