// The REST API (lib/api/petstore-api.ts): stage v1 and its logs, the TOKEN authorizer, the routes of
// shared/http/routes.ts, the per-key usage plan and production's cache of GET /pets.
import { describe, expect, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { ListPetsQuery } from '#shared/schemas.ts';
import {
  ALLOWED_METHODS,
  AUTHORIZER,
  LIST_PAGE_MAX_AGE_SECONDS,
  MINIMUM_COMPRESSION_BYTES,
  ROUTES,
  STAGE_NAME,
} from '#shared/http/routes.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { ROUTE_FUNCTION_IDS, liveAliasOf, methodAt, methodsByPath, ref } from '#test/lib/templates.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, settings, template } = stage;
  const [apiId, api] = stage.only('AWS::ApiGateway::RestApi');
  const [stageId, apiStage] = stage.only('AWS::ApiGateway::Stage');
  const [authorizerId, authorizer] = stage.only('AWS::ApiGateway::Authorizer');

  test("the REST API and its stage v1: throttling, JSON access logs, the stage's execution logs, X-Ray", () => {
    expect(api.Properties).toMatchObject({
      Name: `petstore-${name}`,
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    expect(apiStage.Properties).toMatchObject({
      StageName: STAGE_NAME,
      RestApiId: ref(apiId),
      TracingEnabled: true,
    });
    // Every entry, the stage-wide one and any method's override, carries the stage's settings.
    const methodSettings = apiStage.Properties.MethodSettings as Properties[];
    expect(methodSettings).toContainEqual(expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*' }));
    for (const entry of methodSettings) {
      expect(entry).toMatchObject({
        ThrottlingRateLimit: settings.throttling.rateLimit,
        ThrottlingBurstLimit: settings.throttling.burstLimit,
        LoggingLevel: settings.executionLogLevel,
        DataTraceEnabled: false,
        MetricsEnabled: true,
      });
    }
    const accessLog = apiStage.Properties.AccessLogSetting as { DestinationArn: unknown; Format: string };
    expect(JSON.parse(accessLog.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      principalId: '$context.authorizer.principalId',
      errorType: '$context.error.responseType',
    });
    expect(accessLog.Format).not.toMatch(/authorization|apiKey/i);
    const [, accessLogGroup] = defined(
      stage
        .all('AWS::Logs::LogGroup')
        .find(([id]) => JSON.stringify(accessLog.DestinationArn).includes(`"${id}"`)),
      'the access log group',
    );
    expect(accessLogGroup.Properties.RetentionInDays).toBe(settings.logRetention);
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', ref(apiId), `/${STAGE_NAME}`]] },
      RetentionInDays: settings.logRetention,
    });
  });

  test("the TOKEN authorizer: Authorization header, the Bearer regex, the cache TTL, the function's alias live", () => {
    expect(authorizer.Properties).toMatchObject({
      Type: 'TOKEN',
      RestApiId: ref(apiId),
      IdentitySource: `method.request.header.${AUTHORIZER.header}`,
      IdentityValidationExpression: AUTHORIZER.validationRegex,
      AuthorizerResultTtlInSeconds: settings.authorizerCacheSeconds,
    });
    const uri = JSON.stringify(authorizer.Properties.AuthorizerUri);
    expect(uri).toContain(JSON.stringify(ref(liveAliasOf(stage, 'AuthorizerFunction'))));
    expect(uri).not.toContain('"AuthorizerFunction"');
  });

  describe('methods', () => {
    const methods = methodsByPath(stage);

    test('every method, fallbacks included, is behind the authorizer and counts against the usage plan', () => {
      expect(methods).toHaveLength(ROUTES.length + Object.keys(ALLOWED_METHODS).length + 2);
      for (const { properties } of methods) {
        expect(properties).toMatchObject({
          AuthorizationType: 'CUSTOM',
          AuthorizerId: ref(authorizerId),
          ApiKeyRequired: true,
        });
      }
    });

    test.each(ROUTES)("$method $path invokes the $operationId function's alias live (proxy)", (route) => {
      const method = methodAt(stage, route.path, route.method);
      expect(method).toMatchObject({
        OperationName: route.operationId,
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
      });
      const functionId = ROUTE_FUNCTION_IDS[route.operationId];
      const uri = JSON.stringify((method.Integration as Properties).Uri);
      expect(uri).toContain(JSON.stringify(ref(liveAliasOf(stage, functionId))));
      expect(uri).not.toContain(`"${functionId}"`);
    });
  });

  describe("the stage cache (production's only)", () => {
    const methodSettings = apiStage.Properties.MethodSettings as Properties[];
    const cachedSettings = methodSettings.filter((entry) => entry.CachingEnabled === true);
    const keyed = methodsByPath(stage).filter(({ properties }) =>
      Object.hasOwn((properties.Integration as Properties | undefined) ?? {}, 'CacheKeyParameters'),
    );

    test('is on in production only: a cluster costs by the hour, used or not', () => {
      expect(settings.listCache !== undefined).toBe(name === 'production');
    });

    if (!settings.listCache) {
      test('none: no cache cluster, no method cached, no cache key', () => {
        expect(apiStage.Properties.CacheClusterEnabled).toBeUndefined();
        expect(apiStage.Properties.CacheClusterSize).toBeUndefined();
        expect(cachedSettings).toEqual([]);
        expect(keyed).toEqual([]);
      });
      return;
    }
    const { ttlSeconds, clusterSizeGb } = settings.listCache;
    const listQuery = defined(
      API_METHODS.find((method) => method.operationId === 'listPets')?.cacheKeyQueryParameters,
      "listPets' cache key",
    );
    const keyParameters = [
      ...listQuery.map((name) => `method.request.querystring.${name}`),
      // A cached 304 answers only the tag it matched.
      'method.request.header.If-None-Match',
    ];

    test('a cache cluster of the settings size, a TTL within the contract bound', () => {
      expect(apiStage.Properties).toMatchObject({
        CacheClusterEnabled: true,
        CacheClusterSize: clusterSizeGb,
      });
      expect(ttlSeconds).toBeGreaterThan(0);
      expect(ttlSeconds).toBeLessThanOrEqual(LIST_PAGE_MAX_AGE_SECONDS);
    });

    test('caches GET /pets only, encrypted, for the TTL; stage-wide caching is off', () => {
      expect(methodSettings.find((entry) => entry.ResourcePath === '/*')).toMatchObject({
        CachingEnabled: false,
      });
      expect(cachedSettings).toEqual([
        expect.objectContaining({
          ResourcePath: '/~1pets',
          HttpMethod: 'GET',
          CacheTtlInSeconds: ttlSeconds,
          CacheDataEncrypted: true,
        }),
      ]);
    });

    test("keys GET /pets by every field of listPets' query and If-None-Match, none required, never the key", () => {
      expect([...listQuery].sort()).toEqual(Object.keys(ListPetsQuery._zod.def.shape).sort());
      expect([...listQuery]).toEqual(expect.arrayContaining(['cursor', 'limit', 'status']));
      const listPets = methodAt(stage, '/pets', 'GET');
      expect(listPets.RequestParameters).toEqual(
        Object.fromEntries(keyParameters.map((parameter) => [parameter, false])),
      );
      const cacheKey = (listPets.Integration as Properties).CacheKeyParameters as string[];
      expect([...cacheKey].sort()).toEqual([...keyParameters].sort());
      expect(cacheKey.filter((parameter) => !parameter.startsWith('method.request.querystring.'))).toEqual([
        'method.request.header.If-None-Match',
      ]);
      // The key is not the authorizer's identity source, whatever case it is written in.
      expect(JSON.stringify(cacheKey).toLowerCase()).not.toContain(AUTHORIZER.header.toLowerCase());
      expect(keyed.map(({ path, httpMethod }) => `${httpMethod} ${path}`)).toEqual(['GET /pets']);
    });
  });

  test('compresses answers of MINIMUM_COMPRESSION_BYTES or more', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      MinimumCompressionSize: MINIMUM_COMPRESSION_BYTES,
    });
  });

  test('per-key limits: a usage plan on stage v1, keys coming from the authorizer', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: settings.perKeyLimits.rateLimit, BurstLimit: settings.perKeyLimits.burstLimit },
      Quota: { Limit: settings.perKeyLimits.requestsPerDay, Period: 'DAY' },
      ApiStages: [Match.objectLike({ ApiId: ref(apiId), Stage: ref(stageId) })],
    });
  });
});
