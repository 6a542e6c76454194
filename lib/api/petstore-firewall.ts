// The stage's web ACL (AWS WAF), in front of API Gateway: AWS's managed core rule set and known bad
// inputs, and a limit per client IP address. A blocked request gets the contract's Error object,
// 403 `forbidden`, with the body and headers of API Gateway's WAF_FILTERED response.
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';
import { gatewayResponseOf } from '#shared/http/gateway-responses.ts';

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
    const block: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: blocked.body.status,
          customResponseBodyKey: BLOCKED_BODY_KEY,
          responseHeaders: Object.entries(headers).map(([header, value]) => ({ name: header, value })),
        },
      },
    };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      // WAF's pattern for descriptions has no parentheses.
      description: `Pet store API, ${settings.name} stage: AWS managed rules and a limit per IP address`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('all'),
      customResponseBodies: {
        [BLOCKED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(blocked.body) },
      },
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
      ],
    });

    new CfnWebACLAssociation(this, 'Association', {
      webAclArn: this.webAcl.attrArn,
      resourceArn: apiStage.stageArn,
    });
  }
}

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
