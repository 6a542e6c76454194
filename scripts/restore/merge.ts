// One restore: the source's items, page by page, a few at a time, each by the rule of its kind
// (item-rules.ts); then its summary, the counts of each kind's outcomes and the differences found.
// A dry run reads the same and writes nothing, so its summary is the one the restore would print.
import { OUTCOMES, restoreItem } from '#scripts/restore/item-rules.ts';
import type { ItemResult, Kind, RestoreTarget } from '#scripts/restore/item-rules.ts';
import { scanPages } from '#scripts/restore/tables.ts';

/** Items per Scan page, and items in flight at once: a pace a table on demand takes at once. */
const PAGE_SIZE = 200;
const AT_ONCE = 16;

const KIND_NAMES: Record<Kind, string> = {
  pet: 'pets',
  counter: 'id counters',
  layout: 'pet layout',
  apiKey: 'API keys',
  idempotency: 'idempotency records',
  other: 'other items',
};

/** Items read, each kind's outcomes counted (by `kind/outcome`), and the differences found. */
export type Summary = { items: number; counts: Map<string, number>; differences: string[] };

function tally(summary: Summary, { kind, outcome, difference }: ItemResult) {
  const key = `${kind}/${outcome}`;
  summary.counts.set(key, (summary.counts.get(key) ?? 0) + 1);
  if (difference) summary.differences.push(difference);
}

/** Merges the table `source` into the target; `onPage` hears the count of items done after each page. */
export async function restoreTable(target: RestoreTarget, source: string, onPage?: (done: number) => void) {
  const summary: Summary = { items: 0, counts: new Map(), differences: [] };
  for await (const page of scanPages(target.documentClient, source, PAGE_SIZE)) {
    for (let start = 0; start < page.length; start += AT_ONCE) {
      const batch = page.slice(start, start + AT_ONCE);
      for (const result of await Promise.all(batch.map((item) => restoreItem(target, item))))
        tally(summary, result);
    }
    summary.items += page.length;
    onPage?.(summary.items);
  }
  return summary;
}

/** 12,345: a count as the summary and the progress lines write it. */
export const formatCount = (count: number) => count.toLocaleString('en-US');

/**
 * A line per kind, each outcome counted (`not in the usage plan` only on a stage), then the
 * differences, each left as the target has it.
 */
export function formatSummary({ counts, differences }: Summary, { onStage }: { onStage: boolean }) {
  const lines = Object.entries(OUTCOMES).map(([kind, outcomes]) => {
    const shown = outcomes.filter((outcome) => onStage || outcome !== 'not in the usage plan');
    const each = shown.map((outcome) => `${formatCount(counts.get(`${kind}/${outcome}`) ?? 0)} ${outcome}`);
    return `  ${KIND_NAMES[kind as Kind].padEnd(20)} ${each.join(', ')}`;
  });
  const found =
    differences.length === 0
      ? ['No differences.']
      : ['Differences, each left as the target has it:', ...differences.sort().map((line) => `  ${line}`)];
  return [...lines, ...found].join('\n');
}
