// Every tunable of a stage, each with what it trades, and everything that differs between staging and
// production, in one typed place: the stack reads no other per-stage value, so comparing the two objects
// below is comparing the two environments.
import { RemovalPolicy } from 'aws-cdk-lib';
import { MethodLoggingLevel } from 'aws-cdk-lib/aws-apigateway';
import { LambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import type { ILambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { KeyLimits } from '#shared/http/rate-limit-policy.ts';
import { LIST_PAGE_MAX_AGE_SECONDS } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { PET_SHARDS, STATUS_INDEX } from '#shared/store/table.ts';

export type StageName = 'staging' | 'production';
/** The sizes API Gateway offers a stage's cache cluster, in GB. */
export type CacheClusterSize = '0.5' | '1.6' | '6.1' | '13.5' | '28.4' | '58.2' | '118' | '237';
type WarmThroughput = { readUnitsPerSecond: number; writeUnitsPerSecond: number };
/** One route's objectives over 28 days, as shares of its requests (0.999 is 99.9 %). */
type RouteSlo = {
  /** Not answered 5xx (API Gateway's own 5xx included); a 4xx is the client's, and counts as good. */
  availability: number;
  /** Answered within `thresholdMs`, by API Gateway's Latency: what the client waits. */
  latency: { objective: number; thresholdMs: number };
};

export type StageSettings = {
  /**
   * The stage's name, in its stack's and resources' names (`petstore-<name>`).
   * Not a tunable: a new name is a new stack, and the old one's resources are left behind.
   */
  name: StageName;
  /**
   * The CDK Stage id: `cdk.out/assembly-<id>/` and the `<id>/*` stack selector of `cdk deploy`.
   * Not a tunable: the deploy commands, the workflow and the tools name it.
   */
  id: 'Staging' | 'Production';
  /**
   * API Gateway stage limits of each method, for all clients together (requests per second, bucket size).
   * Higher: more traffic served before 429s; lower: less that a flood can cost in Lambda and DynamoDB.
   */
  throttling: { rateLimit: number; burstLimit: number };
  /**
   * One API key's share, enforced by the stage's usage plan: the authorizer names the key
   * (usageIdentifierKey) and `npm run keys -- create --stage` registers it in the plan.
   * Higher: a busy client is refused less; lower: a runaway client or a leaked key takes less of the stage.
   */
  perKeyLimits: KeyLimits;
  /**
   * How long API Gateway keeps the authorizer's answer (its policy) for a key (0: not at all, at most
   * 3,600): a revoked key keeps working through API Gateway for up to this long.
   * Longer: fewer authorizer invocations and DynamoDB reads; shorter: a revoked key stops sooner.
   */
  authorizerCacheSeconds: number;
  /**
   * Lambda, access-log and execution-log retention.
   * Longer: older incidents can still be read; shorter: less CloudWatch Logs storage to pay for.
   */
  logRetention: RetentionDays;
  /**
   * API Gateway's execution logs (never data traces, which would log the API key).
   * INFO: each request's steps (authorizer, integration), for debugging; ERROR: failures only, less to pay.
   */
  executionLogLevel: MethodLoggingLevel;
  /**
   * What deleting the stack does to the table, its cursor secret, log groups and alarm key.
   * RETAIN: the data outlives a deleted stack; DESTROY: nothing is left behind to pay for or clean up.
   */
  removalPolicy: RemovalPolicy;
  /**
   * DynamoDB's deletion protection of the table.
   * On: no one deletes the table by mistake; off: the stack can be deleted without a manual step.
   */
  deletionProtection: boolean;
  /**
   * Every function's memory, and with it its CPU (Lambda gives CPU in proportion).
   * More: lower latency and shorter cold starts; less: a lower price per millisecond.
   */
  functionMemoryMb: number;
  /**
   * The partition keys pets are spread over (shared/store/table.ts), set when the table is made: it
   * may grow later, never shrink (docs/capacity.md).
   * More: each key takes less of the traffic; fewer: a list page crosses fewer shards (fewer queries).
   */
  petShards: number;
  /**
   * How CodeDeploy moves each function's `live` alias to a new version. The stage's alarms
   * (lib/functions/petstore-rollout.ts) stop and roll back a rollout while it shifts.
   * Canary: a bad version reaches a share of the requests before it is rolled back; all at once: quick.
   */
  rollout: ILambdaDeploymentConfig;
  /**
   * A WAF web ACL in front of the stage (lib/api/petstore-firewall.ts): AWS managed rules and a limit
   * per client IP address, over WAF's 5-minute window. Undefined: no web ACL.
   * Lower: a flood from one address is blocked sooner; higher: a busy client behind one address is not.
   */
  firewall?: { requestsPerIpPer5Minutes: number };
  /**
   * A regional custom domain whose base path `v1` maps to the stage, so that the base address is
   * `https://<domainName>/v1`. Not in the objects below: lib/petstore-app.ts reads it from the
   * context (`<stage>:domainName`, `<stage>:certificateArn`), since it is each operator's own.
   * With one: an address that outlives the stack; without: no certificate or DNS record to keep.
   */
  customDomain?: { domainName: string; certificateArn: string };
  /**
   * API Gateway's stage cache for `GET /pets` (lib/api/petstore-api.ts): a cache cluster of this size
   * (billed by the hour), each page kept `ttlSeconds` (at most `LIST_PAGE_MAX_AGE_SECONDS`, the
   * contract's bound) under its query parameters, never the API key. Undefined: no cache cluster.
   * Longer TTL: fewer listPets invocations and reads, staler pages; bigger cluster: more held, by the hour.
   */
  listCache?: { ttlSeconds: number; clusterSizeGb: CacheClusterSize };
  /**
   * What the table and each index, by name, serve from their first second (DynamoDB's warm throughput):
   * without it a new on-demand table starts near 12,000 read and 4,000 write units a second and
   * doubles at most every 30 minutes. Raising it is billed once; lowering it is not possible.
   * Undefined, or an index not named: DynamoDB's own.
   * Higher: a launch's traffic is served from its first second; lower: less to pay, once.
   */
  warmThroughput?: { table: WarmThroughput; indexes: Partial<Record<string, WarmThroughput>> };
  /**
   * The service level objectives of each route (lib/monitoring/slo-alarms.ts): their budgets on the
   * dashboard, and burn-rate alarms that page.
   * Higher: on-call hears of smaller losses; lower: more failures pass before anyone is woken.
   */
  slos: Record<OperationId, RouteSlo>;
  /**
   * The synthetic probe (lib/monitoring/probe-canary.ts), every 5 minutes with the key that
   * `npm run keys -- probe --stage` stores. `creates`: it also creates a pet and replays the create.
   * Creating: the write path is watched too; not: the probe changes nothing in the stage's data.
   */
  probe: { creates: boolean };
  /**
   * The thresholds of the rollout alarms (lib/monitoring/stage-alarms.ts), which roll a release back
   * and page no one, and of the authorizer's failures, which page.
   * Lower: a bad release is caught sooner; higher: fewer false rollbacks.
   */
  alarms: {
    /**
     * A route's 5xx answers in 5 minutes, but those that blame the authorizer.
     * Lower: a release that fails a few requests is rolled back; higher: a few stray errors are not.
     */
    serverErrorsPer5Minutes: number;
    /**
     * p99 of a route's integration latency, per minute, in `p99LatencyWindow`'s minutes.
     * Lower: a slow release is caught; higher: slow spells (cold starts after a deploy) roll nothing back.
     */
    p99LatencyMs: number;
    /**
     * How many minutes (`datapointsToAlarm`) of the last `evaluationPeriods` must be over p99LatencyMs.
     * Fewer, of a shorter window: it fires sooner, within a canary's wait; more: deaf to a slow minute.
     */
    p99LatencyWindow: { datapointsToAlarm: number; evaluationPeriods: number };
    /**
     * Failed invocations (crashes, timeouts) of one route function in 5 minutes.
     * Lower: a crashing release is rolled back at its first failures; higher: a stray timeout is not.
     */
    functionErrorsPer5Minutes: number;
  };
};

/** The same objectives for every route. */
const routeSlos = (slo: RouteSlo): Record<OperationId, RouteSlo> => ({
  listPets: slo,
  createPet: slo,
  getPet: slo,
});

export const STAGE_SETTINGS: Record<StageName, StageSettings> = {
  staging: {
    name: 'staging',
    id: 'Staging',
    throttling: { rateLimit: 20, burstLimit: 40 },
    perKeyLimits: { rateLimit: 5, burstLimit: 10, requestsPerDay: 10_000 },
    authorizerCacheSeconds: 300,
    logRetention: RetentionDays.TWO_WEEKS,
    executionLogLevel: MethodLoggingLevel.ERROR,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    functionMemoryMb: 256,
    // As production, so that staging rehearses its layout: on-demand tables cost nothing per key.
    petShards: PET_SHARDS,
    rollout: LambdaDeploymentConfig.ALL_AT_ONCE,
    slos: routeSlos({ availability: 0.99, latency: { objective: 0.95, thresholdMs: 1_000 } }),
    probe: { creates: true },
    alarms: {
      serverErrorsPer5Minutes: 5,
      p99LatencyMs: 2_000,
      p99LatencyWindow: { datapointsToAlarm: 3, evaluationPeriods: 5 },
      functionErrorsPer5Minutes: 5,
    },
  },
  production: {
    name: 'production',
    id: 'Production',
    // What the capacity target needs (docs/capacity.md): the busiest method, and the busiest key of
    // the target's mix, each at most 80% of its limit. Fairness between small clients is not what
    // these limits give at this size; they stop a runaway client, a leaked key or a loop.
    throttling: { rateLimit: 90_000, burstLimit: 5_000 },
    perKeyLimits: { rateLimit: 20_000, burstLimit: 2_000, requestsPerDay: 1_500_000_000 },
    authorizerCacheSeconds: 300,
    logRetention: RetentionDays.THREE_MONTHS,
    executionLogLevel: MethodLoggingLevel.ERROR,
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    functionMemoryMb: 512,
    petShards: PET_SHARDS,
    rollout: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
    // Above what the busiest key of the target sends from one of its addresses: the per-key limits
    // answer a client first, so only floods from one address reach this one.
    firewall: { requestsPerIpPer5Minutes: 1_500_000 },
    // Page one is the same few items for every client: a hot key at scale, answered from the cache.
    // Staging has none: a cluster costs by the hour whether used or not, and what the cache does is
    // covered by the template checks and `npm run start:stage -- production`.
    listCache: { ttlSeconds: LIST_PAGE_MAX_AGE_SECONDS, clusterSizeGb: '0.5' },
    // The target from its first second, with a fifth in hand (docs/capacity.md).
    warmThroughput: {
      table: { readUnitsPerSecond: 40_000, writeUnitsPerSecond: 20_000 },
      indexes: { [STATUS_INDEX.name]: { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 15_000 } },
    },
    // Within the threshold: a warm request and its API Gateway overhead, or a cold start's init at
    // this memory (docs/performance.md); a cold start at the authorizer and the route is over it.
    slos: routeSlos({ availability: 0.999, latency: { objective: 0.99, thresholdMs: 300 } }),
    // Read-only: the probe's pets would be the store's.
    probe: { creates: false },
    alarms: {
      serverErrorsPer5Minutes: 5,
      p99LatencyMs: 1_000,
      // Within the canary's 5 minutes, so that it can judge it; deaf to one slow minute.
      p99LatencyWindow: { datapointsToAlarm: 3, evaluationPeriods: 5 },
      functionErrorsPer5Minutes: 1,
    },
  },
};
