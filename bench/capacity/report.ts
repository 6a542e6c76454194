// The capacity model's findings for one layout, as kept in bench/capacity/results.json, and printed
// as Markdown tables that paste into docs/capacity.md: the hottest keys, every limit on the path with
// the ceiling it sets, the quota plan, and the cost at the target.
import { FUNCTION_NAMES } from '../../functions/manifests.ts';
import { PARTITION_LIMITS, ceilingOf, keyName, loadAt, operationSample } from '#bench/capacity/model.ts';
import type { KeyLoad, Sample } from '#bench/capacity/model.ts';
import { TARGET } from '#bench/capacity/mix.ts';
import type { Mix } from '#bench/capacity/mix.ts';
import type { CostAtRate } from '#bench/capacity/cost.ts';
import { PLANNED_SHARE, quotaPlan } from '#bench/capacity/quotas.ts';
import type { LimitFinding } from '#bench/capacity/quotas.ts';

/**
 * What a key is, whatever its shard or record: keys of one kind share the load alike, so the hottest
 * of each kind tells the whole story.
 */
const kindOf = (key: string) =>
  key.replace(/#\d+$/, '#<shard>').replace(/^IDEMPOTENCY#.*$/, 'IDEMPOTENCY#<record>');

type KeyFigures = { key: string; readUnits: number; writeUnits: number; share: number };
type Spread = { max: number; average: number };

export type CapacityFindings = {
  layout: string;
  commit: string;
  recordedAt: string;
  mix: Mix;
  listCacheSeconds: number | null;
  /** At the target rate, the hottest key of each kind (see kindOf), hottest first. */
  target: { rate: number; createsPerSecond: number; readsPerSecond: number; hottest: KeyFigures[] };
  ceiling: { rate: number; createsPerSecond: number; readsPerSecond: number; key: string; limit: string };
  /** Each operation alone: its own rate when its hottest key reaches the limit. */
  operations: Record<string, { rate: number; key: string }>;
  queriesPerListPage: { sample: Spread; walks: Spread };
  /** The catalogue the caches meet (mix.catalogueHours of the target's creates). */
  catalogue?: { pets: number; hours: number };
  /** Every limit on the path at the target (bench/capacity/limits.ts); a JSON null is an unbounded figure. */
  limits?: LimitFinding[];
  /** The rate at which the first limit on the path is reached, and that limit. */
  pathCeiling?: { rate: number; setBy: string };
  /** What the mix costs at the target rate, at production's memory size (bench/capacity/cost.ts). */
  cost?: CostAtRate | { perHour: number; perMonth: number };
};

const figures = (load: KeyLoad): KeyFigures => ({
  key: keyName(load),
  readUnits: load.readUnits,
  writeUnits: load.writeUnits,
  share: load.share,
});
const limitReached = (load: KeyLoad | undefined) =>
  load && load.writeUnits / PARTITION_LIMITS.writeUnits >= load.readUnits / PARTITION_LIMITS.readUnits
    ? 'writes'
    : 'reads';
const spread = (counts: number[]): Spread => ({
  max: Math.max(0, ...counts),
  average: counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length),
});

export function findings(
  sample: Sample,
  context: Pick<CapacityFindings, 'layout' | 'commit' | 'recordedAt' | 'mix' | 'listCacheSeconds'>,
  queriesPerPage: { sample: number[]; walks: number[] },
): CapacityFindings {
  // The sample's own shares, which a random draw only approaches.
  const shareOf = (operation: string) => operationSample(sample, operation).size / sample.size;
  const creates = shareOf('createPet');
  const reads = shareOf('listPets') + shareOf('getPet');
  const rate = Math.max(TARGET.createsPerSecond / creates, TARGET.readsPerSecond / reads);
  const ceiling = ceilingOf(sample);
  const operations = Object.fromEntries(
    FUNCTION_NAMES.map((operation) => {
      // The authorizer's calls stand for every request of their key: its rate is the API's.
      const alone = ceilingOf(operationSample(sample, operation));
      // Unbounded: a cache answers all but a bounded number of misses, whatever the rate.
      const key = alone.key && Number.isFinite(alone.rate) ? keyName(alone.key) : '';
      return [operation, { rate: alone.rate, key }];
    }),
  );
  return {
    ...context,
    target: {
      rate,
      createsPerSecond: rate * creates,
      readsPerSecond: rate * reads,
      hottest: hottestOfEachKind(loadAt(sample, rate).map(figures)),
    },
    ceiling: {
      rate: ceiling.rate,
      createsPerSecond: ceiling.rate * creates,
      readsPerSecond: ceiling.rate * reads,
      key: ceiling.key ? keyName(ceiling.key) : '',
      limit: limitReached(ceiling.key),
    },
    operations,
    queriesPerListPage: { sample: spread(queriesPerPage.sample), walks: spread(queriesPerPage.walks) },
  };
}

function hottestOfEachKind(loads: KeyFigures[]): KeyFigures[] {
  const seen = new Set<string>();
  return loads.filter(({ key }) => !seen.has(kindOf(key)) && Boolean(seen.add(kindOf(key))));
}

const whole = (value: number) =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'unbounded';
const percent = (share: number) =>
  `${(share * 100).toFixed(share < 0.1 || (share > 0.99 && share < 1) ? 1 : 0)}%`;
/** A record's key names a SHA-256: the first characters tell keys apart well enough in a table. */
const shortened = (key: string) => (key.length > 48 ? `${key.slice(0, 47)}…` : key);
const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

const perHourFigure = (dollars: number) => `$${dollars < 10 ? dollars.toFixed(2) : whole(dollars)}`;

/** Every limit at the target and the path's ceiling, the quota plan, and the cost, as tables. */
function describePath(found: CapacityFindings): string[] {
  const { limits, pathCeiling, cost } = found;
  if (!limits || !pathCeiling) return [];
  const amount = (value: number | null, unit: string) =>
    unit === 'of one budget' ? percent(value ?? Infinity) : `${whole(value ?? Infinity)} ${unit}`;
  return [
    `Every limit on the path at the target (each planned to at most ${percent(PLANNED_SHARE)}):`,
    '',
    table(
      ['Service', 'Limit', 'Allows', 'Load at the target', 'Share', 'Reached at (requests/s)'],
      limits.map((limit) => [
        limit.service,
        limit.name,
        amount(limit.allows, limit.unit),
        amount(limit.load, limit.unit),
        percent(limit.share ?? Infinity),
        whole(limit.ceiling ?? Infinity),
      ]),
    ),
    '',
    `Ceiling of the whole path: ${whole(pathCeiling.rate)} requests/s, set by ${pathCeiling.setBy}.`,
    '',
    'The quota plan (Service Quotas, in production’s region):',
    '',
    table(
      ['Quota', 'AWS default', 'Planned', 'The target needs', 'Raised on request'],
      quotaPlan(limits).map(({ quota, needed }) => [
        quota.name,
        whole(quota.default),
        whole(quota.planned),
        whole(needed),
        quota.adjustable ? 'yes' : 'no: the plan keeps the default',
      ]),
    ),
    '',
    ...(cost && 'items' in cost
      ? [
          `Cost at the target, at ${cost.memoryMb} MB (us-east-1 list prices):`,
          '',
          table(
            ['Service', 'Per hour', 'Per month', 'Price'],
            [
              ...cost.items.map((item) => [
                item.service,
                perHourFigure(item.perHour),
                `$${whole(item.perHour * 730)}`,
                item.source,
              ]),
              ['All', perHourFigure(cost.perHour), `$${whole(cost.perMonth)}`, ''],
            ],
          ),
          '',
        ]
      : []),
  ];
}

/** One layout's findings: the hottest keys at the target, the ceiling, each operation alone. */
export function describeFindings(found: CapacityFindings): string {
  const { target, ceiling } = found;
  return [
    `Layout: ${found.layout} (commit ${found.commit}, ${found.recordedAt.slice(0, 10)})`,
    `List cache: ${found.listCacheSeconds ? `${found.listCacheSeconds} s on GET /pets` : 'none'}`,
    '',
    `The hottest partition key of each kind at the target, ${whole(target.rate)} requests/s ` +
      `(${whole(target.createsPerSecond)} creates/s, ${whole(target.readsPerSecond)} reads/s):`,
    '',
    table(
      // Findings with the path's limits read the per-partition limits as one budget; older ones did not.
      [
        'Partition key',
        'Read units/s',
        'Write units/s',
        found.limits ? 'Share of its budget' : 'Share of its limit',
      ],
      hottestOfEachKind(target.hottest).map((key) => [
        shortened(key.key),
        whole(key.readUnits),
        whole(key.writeUnits),
        percent(key.share),
      ]),
    ),
    '',
    `DynamoDB's ceiling for the mix: ${whole(ceiling.rate)} requests/s (${whole(ceiling.createsPerSecond)} creates/s, ` +
      `${whole(ceiling.readsPerSecond)} reads/s), set by ${ceiling.key} (${ceiling.limit}).`,
    '',
    table(
      ['Operation alone', 'Ceiling (its requests/s)', 'Set by'],
      Object.entries(found.operations).map(([operation, { rate, key }]) => [
        operation,
        whole(rate),
        key || 'none: its cache bounds what reaches DynamoDB',
      ]),
    ),
    '',
    ...(found.cost && !('items' in found.cost)
      ? [
          `Cost at the target: $${whole(found.cost.perHour)} an hour, $${whole(found.cost.perMonth)} a month ` +
            "(API Gateway's first tier only).",
          '',
        ]
      : []),
    ...describePath(found),
    `DynamoDB Queries per list page: at most ${found.queriesPerListPage.sample.max}, ` +
      `${found.queriesPerListPage.sample.average.toFixed(2)} on average in the sample; at most ` +
      `${found.queriesPerListPage.walks.max}, ${found.queriesPerListPage.walks.average.toFixed(2)} on average ` +
      'over full walks of every filter.',
  ].join('\n');
}

/**
 * Whether the stack carries the target: no key past PLANNED_SHARE of its budget, and no limit on the
 * path past PLANNED_SHARE of what it allows (quotas as the plan raises them), nor a quota planned
 * below what the target needs.
 */
export const meetsTarget = (found: CapacityFindings) =>
  found.target.hottest.every((key) => key.share <= PLANNED_SHARE) &&
  (found.limits ?? []).every((limit) => (limit.share ?? Infinity) <= PLANNED_SHARE) &&
  quotaPlan(found.limits ?? []).every(({ quota, needed }) => quota.planned >= needed);
