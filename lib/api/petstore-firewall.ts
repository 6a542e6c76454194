// The stage's web ACL (AWS WAF), in front of API Gateway: AWS's managed core rule set and known bad
// inputs, a limit per client IP address (blocked: 403 `forbidden`, API Gateway's WAF_FILTERED body and
// headers), and a cached method's repeated key parameter, answered with the function's own 400 before
// the stage cache could keep that answer under one of the values for every caller of that value.
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';
import { repeatedQueryParameterError } from '#shared/api-error.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { gatewayResponseOf } from '#shared/http/gateway-responses.ts';
import { BASE_PATH } from '#shared/http/routes.ts';

type ManagedRuleGroup = {
  name: string;
  /** The label namespace of what its rules match. */
  labels: string;
  /** A label of the group that does not block. */
  allowed?: string;
};

const MANAGED_RULE_GROUPS: ManagedRuleGroup[] = [
  {
    name: 'AWSManagedRulesCommonRuleSet',
    labels: 'awswaf:managed:aws:core-rule-set:',
    // A body over 8 KB: the contract takes bodies up to 16 KiB and answers larger ones 413.
    allowed: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body',
  },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', labels: 'awswaf:managed:aws:known-bad-inputs:' },
];
const BLOCKED_BODY_KEY = 'forbidden';

/** Each cached method's key parameters: the stage cache keys on one value of each. */
const CACHE_KEY_PARAMETERS = API_METHODS.flatMap(({ httpMethod, resource, cacheKeyQueryParameters = [] }) =>
  cacheKeyQueryParameters.map((name) => ({ httpMethod, path: `${BASE_PATH}${resource}`, name })),
);

/** `name` twice in a URL-decoded query string, each time with a value or without. */
export const repeatedParameterPattern = (name: string) => `(^|&)${name}(=[^&]*)?&(.*&)?${name}(=|&|$)`;
/** WAF's window for counting requests per IP address. */
const RATE_WINDOW_SECONDS = 300;

export type PetstoreFirewallProps = {
  settings: StageSettings;
  requestsPerIpPer5Minutes: number;
  apiStage: Stage;
};

export class PetstoreFirewall extends Construct {
  readonly webAcl: CfnWebACL;

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
          priority: MANAGED_RULE_GROUPS.length + 2 + index,
          statement: {
            andStatement: {
              statements: [
                exactly({ method: {} }, httpMethod),
                exactly({ uriPath: {} }, path),
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
        // Managed rule groups block with WAF's own plain response, so they only count and label what
        // they match; BlockManagedRuleMatches blocks on those labels with the JSON response.
        ...MANAGED_RULE_GROUPS.map((group, index) => ({
          name: group.name,
          priority: index + 1,
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: group.name } },
          overrideAction: { count: {} },
          visibilityConfig: visibility(group.name),
        })),
        {
          name: 'BlockManagedRuleMatches',
          priority: MANAGED_RULE_GROUPS.length + 1,
          statement: {
            orStatement: { statements: MANAGED_RULE_GROUPS.map(blockingMatch) },
          },
          action: block,
          visibilityConfig: visibility('managed-rule-matches'),
        },
        ...repeated.map(({ rule }) => rule),
      ],
    });

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

const labelMatch = (key: string, scope: 'NAMESPACE' | 'LABEL'): CfnWebACL.StatementProperty => ({
  labelMatchStatement: { key, scope },
});

/**
 * A request the group labelled, unless it carries the allowed label. Such a request passes even if
 * another of the group's rules matched it too: a label match cannot say "no label but this one".
 */
function blockingMatch({ labels, allowed }: ManagedRuleGroup): CfnWebACL.StatementProperty {
  if (!allowed) return labelMatch(labels, 'NAMESPACE');
  const notAllowed = { notStatement: { statement: labelMatch(allowed, 'LABEL') } };
  return { andStatement: { statements: [labelMatch(labels, 'NAMESPACE'), notAllowed] } };
}
