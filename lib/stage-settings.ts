// Everything that differs between staging and production, in one typed place: the stack reads no
// other per-stage value, so comparing the two objects below is comparing the two environments.
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export type StageName = 'staging' | 'production';

export type StageSettings = {
  name: StageName;
  /** The CDK Stage id: `cdk.out/assembly-<id>/` and the `<id>/*` stack selector of `cdk deploy`. */
  id: 'Staging' | 'Production';
  /** API Gateway stage limits, for all clients together (requests per second, bucket size). */
  throttling: { rateLimit: number; burstLimit: number };
  /**
   * One API key's share, enforced by the stage's usage plan: the authorizer names the key
   * (usageIdentifierKey) and `npm run keys -- create --stage` registers it in the plan.
   */
  perKeyLimits: { rateLimit: number; burstLimit: number; requestsPerDay: number };
  /** Lambda, access-log and execution-log retention. */
  logRetention: RetentionDays;
  /** What deleting the stack does to the table, its cursor secret, log groups and alarm key. */
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  functionMemoryMb: number;
  alarms: {
    /** 5xx answers (API Gateway's own included) in 5 minutes. */
    serverErrorsPer5Minutes: number;
    /** p99 of API Gateway's Latency over 5 minutes, three periods in a row. */
    p99LatencyMs: number;
    /** Failed invocations (crashes, timeouts) of one route function in 5 minutes. */
    functionErrorsPer5Minutes: number;
  };
};

export const STAGE_SETTINGS: Record<StageName, StageSettings> = {
  staging: {
    name: 'staging',
    id: 'Staging',
    throttling: { rateLimit: 20, burstLimit: 40 },
    perKeyLimits: { rateLimit: 5, burstLimit: 10, requestsPerDay: 10_000 },
    logRetention: RetentionDays.TWO_WEEKS,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    functionMemoryMb: 256,
    alarms: { serverErrorsPer5Minutes: 5, p99LatencyMs: 2_000, functionErrorsPer5Minutes: 5 },
  },
  production: {
    name: 'production',
    id: 'Production',
    throttling: { rateLimit: 200, burstLimit: 400 },
    perKeyLimits: { rateLimit: 50, burstLimit: 100, requestsPerDay: 500_000 },
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    functionMemoryMb: 512,
    alarms: { serverErrorsPer5Minutes: 5, p99LatencyMs: 1_000, functionErrorsPer5Minutes: 1 },
  },
};
