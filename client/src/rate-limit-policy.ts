// RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11): the quota policies an API key is held
// to, read into the one pace the client keeps, its shortest window's rate and burst. A malformed field
// is ignored whole, as the draft says, so that a garbled header can neither stall nor unleash requests.
import { parseList } from './structured-fields.ts';
import type { Item } from './structured-fields.ts';

type QuotaPolicy = {
  name: string;
  /** `q`: the quota, in `unit`s per window. */
  quota: number;
  /** `qu`: "requests" unless the server says otherwise. */
  unit: string;
  /** `w`: the window in seconds; undefined when the policy gives none. */
  windowSeconds: number | undefined;
  /** `petstore-burst`: how many requests the key's token bucket holds; undefined when not given. */
  burst: number | undefined;
};

/** Requests a second, and how many may go at once after a pause: a token bucket. */
export type Pace = { perSecond: number; burst: number };

/**
 * A quota over a long window (the key's 10,000 a day) is not paced: spread evenly, a day's quota
 * would space every request seconds apart while the quota still allows it at once. A key that
 * spends its day meets the server's 429 and Retry-After instead.
 */
const MAX_PACED_WINDOW_SECONDS = 60;

function policyOf({ value, parameters }: Item): QuotaPolicy | undefined {
  const { q, qu, w, pk, 'petstore-burst': burst } = Object.fromEntries(parameters);
  if (value.type !== 'string' || q?.type !== 'integer' || q.value < 0) return undefined;
  if (qu !== undefined && qu.type !== 'string') return undefined;
  if (w !== undefined && (w.type !== 'integer' || w.value <= 0)) return undefined;
  if (pk !== undefined && pk.type !== 'bytes') return undefined;
  return {
    name: value.value,
    quota: q.value,
    unit: qu?.value ?? 'requests',
    windowSeconds: w?.value,
    // A vendor parameter: one that is not a positive Integer is a comment, and the quota is the burst.
    burst: burst?.type === 'integer' && burst.value > 0 ? burst.value : undefined,
  };
}

/** The field's policies (several field lines read as one list); undefined when absent or malformed. */
export function parseRateLimitPolicy(field: string | null): QuotaPolicy[] | undefined {
  const policies = parseList(field ?? '')?.map(policyOf) ?? [];
  if (policies.length === 0 || policies.includes(undefined)) return undefined;
  return policies as QuotaPolicy[];
}

/**
 * The pace of the shortest window counted in requests (the lower rate of two as short), with its
 * burst, else its quota, as the bucket; undefined when no policy sets one. A zero quota sets none:
 * it would hold requests forever, where the server's 429 says when to come back.
 */
export function paceOf(policies: QuotaPolicy[]): Pace | undefined {
  const rates = policies.flatMap(({ quota, unit, windowSeconds, burst }) =>
    unit === 'requests' &&
    quota > 0 &&
    windowSeconds !== undefined &&
    windowSeconds <= MAX_PACED_WINDOW_SECONDS
      ? [{ quota, windowSeconds, burst: burst ?? quota }]
      : [],
  );
  const [shortest] = rates.sort((a, b) => a.windowSeconds - b.windowSeconds || a.quota - b.quota);
  return shortest && { perSecond: shortest.quota / shortest.windowSeconds, burst: shortest.burst };
}
