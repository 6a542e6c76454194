// The stage's web ACL (AWS WAF), in front of API Gateway: AWS's managed core rule set and known bad
// inputs, rule by rule, a limit per client IP address, and a cached method's repeated key parameter,
// answered with the function's own 400 before the stage cache could keep that answer under one of the
// values for every caller of that value. Every other block is 403 `forbidden`, API Gateway's WAF_FILTERED.
import { Stack } from 'aws-cdk-lib';
import type { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';
import { repeatedQueryParameterError } from '#shared/api-error.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { gatewayResponseOf } from '#shared/http/gateway-responses.ts';
import { BASE_PATH } from '#shared/http/routes.ts';

type ManagedRuleGroup = {
  name: string;
  /** Its rules that only count (and label) what they match, each for a reason of the contract's. */
  countOnly?: string[];
};

/**
 * Each group blocks by its own rules: WAF stops evaluating a group at its first matching rule, so
 * counting a whole group (or one rule placed early in it) would let a match of that rule hide every
 * later one. A managed rule's block has no custom response: API Gateway renders it as WAF_FILTERED.
 */
export const MANAGED_RULE_GROUPS: ManagedRuleGroup[] = [
  {
    name: 'AWSManagedRulesCommonRuleSet',
    countOnly: [
      // A body over 8 KB: the contract takes bodies up to 16 KiB and answers larger ones 413.
      'SizeRestrictions_BODY',
      // No User-Agent header: HTTP does not require one, many clients send none by default, and
      // staging and the local API take such requests (docs/api.md).
      'NoUserAgent_HEADER',
    ],
  },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet' },
];
const BLOCKED_BODY_KEY = 'forbidden';

/** Each cached method's key parameters: the stage cache keys on one value of each. */
const CACHE_KEY_PARAMETERS = API_METHODS.flatMap(({ httpMethod, resource, cacheKeyQueryParameters = [] }) =>
  cacheKeyQueryParameters.map((name) => ({ httpMethod, path: `${BASE_PATH}${resource}`, name })),
);

/** `name` twice in a URL-decoded query string, each time with a value or without. */
export const repeatedParameterPattern = (name: string) => `(^|&)${name}(=[^&]*)?&(.*&)?${name}(=|&|$)`;
/** WAF's window for counting requests per IP address. */
export const RATE_WINDOW_SECONDS = 300;

export type PetstoreFirewallProps = {
  settings: StageSettings;
  requestsPerIpPer5Minutes: number;
  apiStage: Stage;
};

export class PetstoreFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  /** Requests each rule blocked, by the metric names WAF publishes under (its visibility configs). */
  readonly blockedRequests: (period: Duration) => Metric[];

  constructor(
    scope: Construct,
    id: string,
    { settings, requestsPerIpPer5Minutes, apiStage }: PetstoreFirewallProps,
  ) {
    super(scope, id);
    // Metric names need not be unique; the web ACL's own name is CloudFormation's to choose.
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `petstore-${settings.name}-${metricName}`,
      sampledRequestsEnabled: true,
    });
    const blocked = gatewayResponseOf('WAF_FILTERED');
    const { 'Content-Type': _contentType, ...headers } = blocked.headers;
    const responseHeaders = Object.entries(headers).map(([header, value]) => ({ name: header, value }));
    const block: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: blocked.body.status,
          customResponseBodyKey: BLOCKED_BODY_KEY,
          responseHeaders,
        },
      },
    };
    const repeated = CACHE_KEY_PARAMETERS.map(({ httpMethod, path, name }, index) => {
      const error = repeatedQueryParameterError(name);
      return {
        body: {
          [`repeated-${name}`]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(error.toBody()) },
        },
        rule: {
          name: `Repeated-${name}`,
          priority: MANAGED_RULE_GROUPS.length + 1 + index,
          statement: {
            andStatement: {
              statements: [
                exactly({ method: {} }, httpMethod),
                samePath(path),
                {
                  regexMatchStatement: {
                    fieldToMatch: { queryString: {} },
                    regexString: repeatedParameterPattern(name),
                    textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
                  },
                },
              ],
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: error.status,
                customResponseBodyKey: `repeated-${name}`,
                responseHeaders,
              },
            },
          },
          visibilityConfig: visibility(`repeated-${name}`),
        },
      };
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      // WAF's pattern for descriptions has no parentheses.
      description: `Pet store API, ${settings.name} stage: AWS managed rules, a limit per IP address, no repeated cache keys`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('all'),
      customResponseBodies: Object.assign(
        { [BLOCKED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(blocked.body) } },
        ...repeated.map(({ body }) => body),
      ),
      rules: [
        {
          name: 'RequestsPerIp',
          priority: 0,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: requestsPerIpPer5Minutes,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
            },
          },
          action: block,
          visibilityConfig: visibility('requests-per-ip'),
        },
        ...MANAGED_RULE_GROUPS.map(({ name, countOnly = [] }, index) => ({
          name,
          priority: index + 1,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ruleActionOverrides: countOnly.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility(name),
        })),
        ...repeated.map(({ rule }) => rule),
      ],
    });

    const webAclMetric = visibility('all').metricName;
    const ruleMetrics = this.webAcl.rules as { visibilityConfig: CfnWebACL.VisibilityConfigProperty }[];
    this.blockedRequests = (period) =>
      ruleMetrics.map(
        ({ visibilityConfig }) =>
          new Metric({
            namespace: 'AWS/WAFV2',
            metricName: 'BlockedRequests',
            dimensionsMap: {
              WebACL: webAclMetric,
              Region: Stack.of(this).region,
              Rule: visibilityConfig.metricName,
            },
            statistic: 'Sum',
            period,
            label: visibilityConfig.metricName,
          }),
      );

    new CfnWebACLAssociation(this, 'Association', {
      webAclArn: this.webAcl.attrArn,
      resourceArn: apiStage.stageArn,
    });
  }
}

const exactly = (
  fieldToMatch: CfnWebACL.FieldToMatchProperty,
  value: string,
): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch,
    positionalConstraint: 'EXACTLY',
    searchString: value,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});

/**
 * The path API Gateway routes to `path`: as URL-decoded and normalized (no `//`, `/./` or `/../`),
 * with or without a trailing slash, which API Gateway routes to the same resource.
 */
const samePath = (path: string): CfnWebACL.StatementProperty => ({
  regexMatchStatement: {
    fieldToMatch: { uriPath: {} },
    regexString: `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`,
    textTransformations: [
      { priority: 0, type: 'URL_DECODE' },
      { priority: 1, type: 'NORMALIZE_PATH' },
    ],
  },
});
