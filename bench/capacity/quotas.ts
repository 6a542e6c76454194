// What a limit on the request path is, as the capacity model checks it, and the plan for the
// account's service quotas: each limit's share at the target, the rate at which it is reached, and
// what each quota must be raised to so that no limit passes the planned share.
import { rateAtShare } from '#bench/capacity/model.ts';

/**
 * The share of a limit the plan lets the target use: the model averages over seconds and keys, and
 * real traffic does not, so every limit keeps a fifth in hand.
 */
export const PLANNED_SHARE = 0.8;

/** A service quota: AWS's default, the value the plan asks for, and whether AWS raises it on request. */
export type Quota = { name: string; default: number; planned: number; adjustable: boolean };

/**
 * The account's quotas in production's region, as the target needs them (docs/capacity.md, "The
 * quota plan"). API Gateway's account burst stays at its default: AWS does not raise it on request,
 * and the target does not need it raised.
 */
export const QUOTA_PLAN = {
  apiGatewayRate: {
    name: 'API Gateway: Throttle rate (account, region)',
    default: 10_000,
    planned: 130_000,
    adjustable: true,
  },
  apiGatewayBurst: {
    name: 'API Gateway: Throttle burst rate (account, region)',
    default: 5_000,
    planned: 5_000,
    adjustable: false,
  },
  lambdaConcurrency: {
    name: 'Lambda: Concurrent executions (region)',
    default: 1_000,
    planned: 6_000,
    adjustable: true,
  },
  dynamoDbTableReads: {
    name: 'DynamoDB: Table-level read throughput limit',
    default: 40_000,
    planned: 40_000,
    adjustable: true,
  },
  dynamoDbTableWrites: {
    name: 'DynamoDB: Table-level write throughput limit',
    default: 40_000,
    planned: 40_000,
    adjustable: true,
  },
} as const satisfies Record<string, Quota>;

type Service = 'API Gateway' | 'AWS WAF' | 'Lambda' | 'DynamoDB';

export type Limit = {
  service: Service;
  name: string;
  unit: string;
  /** What it allows: a stage setting, a quota as planned, or a fixed limit of AWS. */
  allows: number;
  /** The load the mix puts on it at `rate` requests a second. */
  loadAt(rate: number): number;
  /** Where AWS states the limit. */
  source: string;
  quota?: Quota;
  /** What each unit of the quota allows of this limit: `allows` is the planned quota times this. */
  quotaScale?: number;
};

/**
 * The most a token bucket must hold for requests arriving independently at `rate` while it refills
 * at `refill`: the peak over windows t of rate*t + 3*sqrt(rate*t) - refill*t, which is
 * 2.25 * rate / (refill - rate), and unbounded once the rate reaches the refill.
 */
export const bucketDemand = (rate: number, refill: number) =>
  rate >= refill ? Infinity : (2.25 * rate) / (refill - rate);

export type LimitFinding = {
  service: Service;
  name: string;
  unit: string;
  allows: number;
  load: number;
  share: number;
  /** The mix's rate at which this limit is reached. */
  ceiling: number;
  source: string;
  quota?: Quota;
  quotaScale?: number;
};

/** Each limit at the target rate: its load, its share, and the rate at which it is reached. */
export function checkLimits(limits: Limit[], targetRate: number): LimitFinding[] {
  return limits.map(({ loadAt: load, ...limit }) => {
    const share = load(targetRate) / limit.allows;
    return {
      ...limit,
      load: load(targetRate),
      share,
      ceiling: rateAtShare((rate) => load(rate) / limit.allows),
    };
  });
}

/** The quota plan: each quota with the value the target needs (its load over PLANNED_SHARE). */
export function quotaPlan(found: LimitFinding[]) {
  const byQuota = new Map<string, { quota: Quota; needed: number }>();
  for (const { quota, quotaScale = 1, load } of found) {
    if (!quota) continue;
    const needed = Math.max(byQuota.get(quota.name)?.needed ?? 0, load / quotaScale / PLANNED_SHARE);
    byQuota.set(quota.name, { quota, needed });
  }
  return [...byQuota.values()];
}
