// Order statistics by the nearest-rank method: every figure reported is a value that was measured.

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] as number;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

/** How far a figure moved between the runs it was measured in. */
export type Spread = { min: number; median: number; max: number };

export const spread = (values: readonly number[]): Spread => ({
  min: Math.min(...values),
  median: median(values),
  max: Math.max(...values),
});
