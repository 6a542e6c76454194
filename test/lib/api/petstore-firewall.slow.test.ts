// The web ACL in front of production (lib/api/petstore-firewall.ts): AWS's managed rule groups, rule by
// rule, a limit per client IP, every block answered with the contract's Error object (403 forbidden),
// a repeated key parameter of the cached list answered 400 as the function would, on every spelling of
// its path, and the association with stage v1. Staging has none.
import { describe, expect, test } from '@jest/globals';
import { MANAGED_RULE_GROUPS, repeatedParameterPattern } from '#lib/api/petstore-firewall.ts';
import { PetstoreStack } from '#lib/petstore-stack.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { ErrorBody, repeatedQueryParameterError } from '#shared/api-error.ts';
import { gatewayResponseOf } from '#shared/http/gateway-responses.ts';
import { RESPONSE_HEADERS } from '#shared/http/json-response.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import { appWithFlags } from '#test/lib/app-with-flags.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import type { Properties } from '#test/lib/synthesize.ts';
import { arnOf, ref } from '#test/lib/templates.ts';

type Rule = {
  Name: string;
  Priority: number;
  Statement: Properties;
  Action?: { Block?: { CustomResponse: Properties } };
  OverrideAction?: Properties;
};

describe('the production stack', () => {
  const stage = synthesized.production;
  const [webAclId, webAcl] = stage.only('AWS::WAFv2::WebACL');
  const rules = webAcl.Properties.Rules as Rule[];
  const rule = (name: string) => {
    const found = rules.find((candidate) => candidate.Name === name);
    if (!found) throw new Error(`no rule ${name}`);
    return found;
  };

  test('a regional web ACL that allows what no rule blocks', () => {
    // CloudFormation names it: a fixed name would block any update that replaces it.
    expect(webAcl.Properties.Name).toBeUndefined();
    expect(webAcl.Properties).toMatchObject({
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
    });
    expect(rules.map(({ Name }) => Name)).toEqual([
      'RequestsPerIp',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
      'Repeated-limit',
      'Repeated-status',
      'Repeated-cursor',
    ]);
    expect(rules.map(({ Priority }) => Priority)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test("a limit per client IP address, over WAF's 5 minutes, from the stage settings", () => {
    expect(rule('RequestsPerIp').Statement).toEqual({
      RateBasedStatement: {
        AggregateKeyType: 'IP',
        Limit: stage.settings.firewall?.requestsPerIpPer5Minutes,
        EvaluationWindowSec: 300,
      },
    });
  });

  test('no managed group is counted as a whole: each blocks rule by rule', () => {
    const groups = rules.filter(({ Statement }) => 'ManagedRuleGroupStatement' in Statement);
    expect(groups.map(({ Name }) => Name)).toEqual([
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    for (const { OverrideAction } of groups) expect(OverrideAction).toEqual({ None: {} });
    for (const { OverrideAction } of rules) expect(OverrideAction ?? {}).not.toHaveProperty('Count');
  });

  test('only the body-size and User-Agent rules count, by their exact names, and nothing else', () => {
    const overrides = (name: string) =>
      (rule(name).Statement.ManagedRuleGroupStatement as { RuleActionOverrides: unknown[] })
        .RuleActionOverrides;
    // WAF silently ignores an override whose rule name is not the group's, letter for letter.
    expect(overrides('AWSManagedRulesCommonRuleSet')).toEqual([
      { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
      { Name: 'NoUserAgent_HEADER', ActionToUse: { Count: {} } },
    ]);
    expect(overrides('AWSManagedRulesKnownBadInputsRuleSet')).toEqual([]);
    expect(MANAGED_RULE_GROUPS.flatMap(({ countOnly = [] }) => countOnly)).toHaveLength(2);
  });

  test("a managed rule's block is API Gateway's WAF_FILTERED: the contract's 403 Error object", () => {
    // WAF's own plain 403 never reaches a client of API Gateway: a block without a custom response
    // is rendered by the stage's WAF_FILTERED gateway response, which the stack customizes.
    const [, response] = stage
      .all('AWS::ApiGateway::GatewayResponse')
      .find(([, candidate]) => candidate.Properties.ResponseType === 'WAF_FILTERED') ?? [
      undefined,
      undefined,
    ];
    expect(response?.Properties.StatusCode).toBe('403');
    expect(
      JSON.parse(
        (response?.Properties.ResponseTemplates as Record<string, string>)['application/json'] ?? '',
      ),
    ).toEqual({ code: 'forbidden', message: expect.any(String), status: 403 });
  });

  test("every block answers 403 with the contract's Error object, code forbidden, as JSON", () => {
    const bodies = webAcl.Properties.CustomResponseBodies as Record<
      string,
      { ContentType: string; Content: string }
    >;
    const blocking = rules.filter((candidate) => candidate.Action && !candidate.Name.startsWith('Repeated-'));
    expect(blocking.map(({ Name }) => Name)).toEqual(['RequestsPerIp']);
    for (const { Action } of blocking) {
      const response = Action?.Block?.CustomResponse ?? {};
      expect(response.ResponseCode).toBe(403);
      const body = bodies[String(response.CustomResponseBodyKey)];
      expect(body?.ContentType).toBe('APPLICATION_JSON');
      const parsed = ErrorBody.parse(JSON.parse(body?.Content ?? ''));
      expect(parsed).toEqual({ code: 'forbidden', message: expect.any(String), status: 403 });
      // What API Gateway's WAF_FILTERED response says too, with the headers of every response.
      expect(parsed).toEqual(gatewayResponseOf('WAF_FILTERED').body);
      const { 'Content-Type': _json, ...headers } = RESPONSE_HEADERS;
      expect(response.ResponseHeaders).toEqual(
        Object.entries(headers).map(([Name, Value]) => ({ Name, Value })),
      );
    }
  });

  describe("a cached method's key parameter given twice: the function's own 400, before the cache", () => {
    const bodies = webAcl.Properties.CustomResponseBodies as Record<string, { Content: string }>;

    test.each(Object.keys(ListPetsQuery._zod.def.shape))('%s', (name) => {
      const { Statement, Action } = rule(`Repeated-${name}`);
      const exactly = (field: Properties, value: string) => ({
        ByteMatchStatement: {
          FieldToMatch: field,
          PositionalConstraint: 'EXACTLY',
          SearchString: value,
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        },
      });
      expect(Statement).toEqual({
        AndStatement: {
          Statements: [
            exactly({ Method: {} }, 'GET'),
            {
              RegexMatchStatement: {
                FieldToMatch: { UriPath: {} },
                RegexString: '^/v1/pets/?$',
                TextTransformations: [
                  { Priority: 0, Type: 'URL_DECODE' },
                  { Priority: 1, Type: 'NORMALIZE_PATH' },
                ],
              },
            },
            {
              RegexMatchStatement: {
                FieldToMatch: { QueryString: {} },
                RegexString: repeatedParameterPattern(name),
                TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
              },
            },
          ],
        },
      });
      const response = Action?.Block?.CustomResponse ?? {};
      expect(response.ResponseCode).toBe(400);
      const body = JSON.parse(bodies[String(response.CustomResponseBodyKey)]?.Content ?? '');
      expect(body).toEqual(repeatedQueryParameterError(name).toBody());
      expect(body).toEqual({
        code: 'validation_error',
        message: `${name}: must be given at most once`,
        status: 400,
      });
    });

    test('the path matches as API Gateway routes it: decoded, normalized, a trailing slash or not', () => {
      const { Statement } = rule('Repeated-limit');
      const [, pathMatch] = (Statement.AndStatement as { Statements: Properties[] }).Statements;
      const pattern = new RegExp((pathMatch?.RegexMatchStatement as { RegexString: string }).RegexString);
      // What WAF's URL_DECODE, then NORMALIZE_PATH, leave of each spelling.
      const normalized = (path: string) =>
        decodeURIComponent(path)
          .replace(/\/{2,}/g, '/')
          .replace(/\/\.(?=\/)/g, '');
      for (const path of ['/v1/pets', '/v1/pets/', '/v1/%70ets', '/v1//pets', '/v1/./pets'])
        expect([path, pattern.test(normalized(path))]).toEqual([path, true]);
      for (const path of ['/v1/pets/1', '/v1/petsx', '/v2/pets', '/v1/pets//x'])
        expect([path, pattern.test(normalized(path))]).toEqual([path, false]);
    });

    test('the pattern finds a name twice in a decoded query string, with or without values', () => {
      const repeats = (query: string) => new RegExp(repeatedParameterPattern('limit')).test(query);
      for (const query of [
        'limit=1&limit=2',
        'limit=1&x=y&limit=1',
        'status=sold&limit&limit=2',
        'limit=&limit',
      ])
        expect(repeats(query)).toBe(true);
      for (const query of [
        'limit=1',
        'limit=1&status=sold',
        'sublimit=1&limit=2',
        'limit=1&limited=2',
        'limits=1&limit=2',
      ])
        expect(repeats(query)).toBe(false);
    });
  });

  test('the web ACL is associated with stage v1 of the API', () => {
    const [, association] = stage.only('AWS::WAFv2::WebACLAssociation');
    const [apiId] = stage.only('AWS::ApiGateway::RestApi');
    const [stageId] = stage.only('AWS::ApiGateway::Stage');
    expect(association.Properties.WebACLArn).toEqual(arnOf(webAclId));
    const resourceArn = JSON.stringify(association.Properties.ResourceArn);
    expect(resourceArn).toContain(JSON.stringify(ref(apiId)));
    expect(resourceArn).toContain(`"/stages/",${JSON.stringify(ref(stageId))}`);
  });
});

test('a stage with the list cache but no firewall is refused: repeated parameters would reach the cache', () => {
  const app = appWithFlags({ 'aws:cdk:bundling-stacks': [] });
  const { firewall: _firewall, ...settings } = STAGE_SETTINGS.production;
  expect(() => new PetstoreStack(app, 'CachedWithoutFirewall', { settings })).toThrow(
    'production: listCache needs the firewall',
  );
});

describe('the staging stack', () => {
  test('has no web ACL (its settings have no firewall)', () => {
    expect(synthesized.staging.settings.firewall).toBeUndefined();
    expect(synthesized.staging.all('AWS::WAFv2::WebACL')).toEqual([]);
    expect(synthesized.staging.all('AWS::WAFv2::WebACLAssociation')).toEqual([]);
  });
});
