// The basis of every cost figure in the bench and the docs: AWS list prices in us-east-1, each with
// the page to check it on before a budget rests on it, and the traffic the per-request costs assume.
import { STAGE_SETTINGS } from '../lib/stage-settings.ts';
import type { CacheClusterSize } from '../lib/stage-settings.ts';

/** Dollars per million requests in each monthly volume tier, up to `upTo` requests a month. */
const API_GATEWAY_REST_TIERS = [
  { upTo: 333e6, perMillion: 3.5 },
  { upTo: 1e9, perMillion: 2.8 },
  { upTo: 20e9, perMillion: 2.38 },
  { upTo: Infinity, perMillion: 1.51 },
] as const;
const CACHE_CLUSTER_PER_HOUR: Record<CacheClusterSize, number> = {
  '0.5': 0.02,
  '1.6': 0.038,
  '6.1': 0.2,
  '13.5': 0.25,
  '28.4': 0.5,
  '58.2': 1,
  '118': 1.9,
  '237': 3.8,
};
/** Data transfer out to the internet, dollars per GB by monthly volume. */
const TRANSFER_OUT_TIERS = [
  { upTo: 100, perGb: 0 },
  { upTo: 10 * 1024, perGb: 0.09 },
  { upTo: 50 * 1024, perGb: 0.085 },
  { upTo: 150 * 1024, perGb: 0.07 },
  { upTo: Infinity, perGb: 0.05 },
] as const;

export const AWS_PRICES = {
  region: 'us-east-1',
  apiGateway: { source: 'https://aws.amazon.com/api-gateway/pricing/', tiers: API_GATEWAY_REST_TIERS },
  cacheCluster: { source: 'https://aws.amazon.com/api-gateway/pricing/', perHour: CACHE_CLUSTER_PER_HOUR },
  waf: {
    source: 'https://aws.amazon.com/waf/pricing/',
    perMillionRequests: 0.6,
    perWebAclMonth: 5,
    perRuleMonth: 1,
  },
  lambda: {
    source: 'https://aws.amazon.com/lambda/pricing/',
    perMillionRequests: 0.2,
    arm64PerGbSecond: 0.0000133334,
  },
  dynamoDb: {
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    perMillionReadUnits: 0.125,
    perMillionWriteUnits: 0.625,
  },
  xRay: { source: 'https://aws.amazon.com/xray/pricing/', perMillionTraces: 5 },
  logs: { source: 'https://aws.amazon.com/cloudwatch/pricing/', perGbIngested: 0.5, perGbScanned: 0.005 },
  cloudWatch: {
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    perAlarmMetricMonth: 0.1,
    perCompositeAlarmMonth: 0.5,
    perDashboardMonth: 3,
    perCanaryRun: 0.0012,
  },
  secretsManager: { source: 'https://aws.amazon.com/secrets-manager/pricing/', perSecretMonth: 0.4 },
  transfer: { source: 'https://aws.amazon.com/ec2/pricing/on-demand/', tiers: TRANSFER_OUT_TIERS },
} as const;

/** How often the key of the cost model sends a request: one authorizer miss per key per cache TTL. */
const KEY_REQUEST_INTERVAL_SECONDS = 15;

export const KEY_TRAFFIC = {
  requestIntervalSeconds: KEY_REQUEST_INTERVAL_SECONDS,
  authorizerCacheHitRate: 1 - KEY_REQUEST_INTERVAL_SECONDS / STAGE_SETTINGS.production.authorizerCacheSeconds,
};
