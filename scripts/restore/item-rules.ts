// How each kind of item comes back into the target table, by the rules the data keeps: a pet never
// changes, an id is never used twice, an ended key never works again, a replay lasts 24 hours. Every
// write is conditional, so what the target holds (a create's pet above all) is never replaced: an
// item already there is compared instead, and a difference reported.
import { isDeepStrictEqual } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item, TableClient } from '#shared/store/dynamodb.ts';
import { hasRecordExpired } from '#shared/store/idempotency-records.ts';
import { IF_ABSENT, TABLE_KEY, itemKindOf } from '#shared/store/table.ts';
import { patiently } from '#scripts/restore/tables.ts';

/** What can become of an item of each kind, in the order the summary shows them. */
export const OUTCOMES = {
  pet: ['restored', 'already there', 'different'],
  counter: ['raised', 'already as high'],
  layout: ['restored', 'already there', 'different'],
  apiKey: ['restored', 'already there', 'different', 'not in the usage plan'],
  idempotency: ['restored', 'already there', 'different', 'expired'],
  other: ['left out'],
} as const;
export type Kind = keyof typeof OUTCOMES;
type Outcome = (typeof OUTCOMES)[Kind][number];
export type ItemResult = { kind: Kind; outcome: Outcome; difference?: string };

export type RestoreTarget = {
  table: TableClient;
  /** For the one write the table client does not make: raising a counter. */
  documentClient: DynamoDBDocumentClient;
  dryRun: boolean;
  /** On a stage: whether its usage plan still serves the key with this hash. */
  usagePlanServes?: ((keyHash: string) => Promise<boolean>) | undefined;
};

const keyOf = (item: Item) => ({
  [TABLE_KEY.partitionKey]: item[TABLE_KEY.partitionKey],
  [TABLE_KEY.sortKey]: item[TABLE_KEY.sortKey],
});

async function read({ table }: RestoreTarget, item: Item) {
  const found = await patiently(() => table.get(keyOf(item)));
  return found && !(itemKindOf(found) === 'idempotency' && hasRecordExpired(found)) ? found : undefined;
}

/** Writes the item unless the target has it (or, for an idempotency record, an expired one). */
const writeIfAbsent = ({ table }: RestoreTarget, item: Item) =>
  patiently(() => table.putIfAbsent(item, { orExpired: itemKindOf(item) === 'idempotency' }));

/** What tells the item apart in a difference: a pet's or a key's id. */
function nameOf(kind: Kind, item: Item) {
  if (kind === 'pet') return `pet ${item.id}`;
  if (kind === 'apiKey') return `API key ${item.id}`;
  if (kind === 'layout') return 'pet layout';
  return `${kind === 'idempotency' ? 'idempotency record' : 'item'} ${item[TABLE_KEY.partitionKey]}`;
}

/** Already there, or different: then the attributes that differ. */
function compare(kind: Kind, item: Item, there: Item): ItemResult {
  const names = [...new Set([...Object.keys(item), ...Object.keys(there)])].sort();
  const differing = names.filter((name) => !isDeepStrictEqual(item[name], there[name]));
  if (differing.length === 0) return { kind, outcome: 'already there' };
  return { kind, outcome: 'different', difference: `${nameOf(kind, item)}: ${differing.join(', ')}` };
}

/** Tries before an item that keeps appearing and vanishing is given up on. */
const RACES = 3;

/** Written when absent, else compared. A write that loses a race compares with the winner. */
async function restoreIfAbsent(target: RestoreTarget, kind: Kind, item: Item): Promise<ItemResult> {
  for (let race = 0; race < RACES; race++) {
    const there = await read(target, item);
    if (there) return compare(kind, item, there);
    if (target.dryRun || (await writeIfAbsent(target, item))) return { kind, outcome: 'restored' };
  }
  throw new Error(`${nameOf(kind, item)} keeps being written and deleted in the target: try again later`);
}

/** A counter ends at the larger of the two values: one written back never hands out an id twice. */
async function raiseCounter(target: RestoreTarget, item: Item): Promise<ItemResult> {
  const { table, documentClient, dryRun } = target;
  const value = Number(item.value);
  const command = new UpdateCommand({
    TableName: table.tableName,
    Key: keyOf(item),
    UpdateExpression: 'SET #value = :value',
    ConditionExpression: `${IF_ABSENT} OR #value < :value`,
    ExpressionAttributeNames: { '#value': 'value' },
    ExpressionAttributeValues: { ':value': value },
  });
  const raised = dryRun
    ? !(Number((await read(target, item))?.value) >= value)
    : await patiently(() => documentClient.send(command)).then(
        () => true,
        (error: Error) => {
          if (error.name === 'ConditionalCheckFailedException') return false;
          throw error;
        },
      );
  return { kind: 'counter', outcome: raised ? 'raised' : 'already as high' };
}

/**
 * A key the target has stays as it is there: revoked or expired, it stays so. One the target lost
 * comes back as the source has it; on a stage, only if the usage plan still serves its hash.
 */
async function restoreKey(target: RestoreTarget, item: Item): Promise<ItemResult> {
  const there = await read(target, item);
  if (there) return compare('apiKey', item, there);
  const served = target.usagePlanServes?.(item[TABLE_KEY.sortKey]) ?? true;
  if (!(await served)) return { kind: 'apiKey', outcome: 'not in the usage plan' };
  return restoreIfAbsent(target, 'apiKey', item);
}

/** Restores one item of the source by the rule of its kind. */
export async function restoreItem(target: RestoreTarget, item: Item): Promise<ItemResult> {
  const kind = itemKindOf(item) ?? 'other';
  if (kind === 'counter') return raiseCounter(target, item);
  if (kind === 'apiKey') return restoreKey(target, item);
  if (kind === 'idempotency' && hasRecordExpired(item)) return { kind, outcome: 'expired' };
  if (kind === 'other') return { kind, outcome: 'left out' };
  return restoreIfAbsent(target, kind, item);
}
