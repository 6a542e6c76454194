// The local gateway's two sources agree: what `npm start` serves from the shared modules is what
// the synthesized template tells API Gateway (methods, integrations, gateway responses, authorizer),
// and the template's limits and cache are each stage's settings; API Gateway invokes each function's
// `live` alias, which it is allowed to.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import type { ApiDefinition } from '#local/api-gateway/definition.ts';
import { createTemplateReader, readTemplate } from '#local/cloud-assembly/template.ts';
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';
import { gatewayAnswer } from '#local/api-gateway/gateway-responses.ts';
import { projectStageAssembly } from '#local/cloud-assembly/stage-assembly.ts';
import { apiDefinitionFromTemplate } from '#local/cloud-assembly/template-api-definition.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import type { StageName } from '#lib/stage-settings.ts';
import { AUTHORIZER, MINIMUM_COMPRESSION_BYTES } from '#shared/http/routes.ts';
import { defined } from '#test/support/defined.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const templateOf = (stage: string) =>
  readTemplate(projectStageAssembly(PROJECT_ROOT, stage, () => undefined).templateFile);

const fromTemplate = (stage: string) => apiDefinitionFromTemplate(createTemplateReader(templateOf(stage)));

/** Methods comparable across sources: functions by route, mocks by their whole answer. */
const methodsOf = (definition: ApiDefinition) =>
  definition.methods
    .map(({ resource, httpMethod, authorized, integration }) => ({
      resource,
      httpMethod,
      authorized,
      answer: integration.type === 'MOCK' ? integration : 'a function',
    }))
    .sort((a, b) => `${a.resource} ${a.httpMethod}`.localeCompare(`${b.resource} ${b.httpMethod}`));

describe.each([
  ['staging', { rateLimit: 20, burstLimit: 40 }, { rateLimit: 5, burstLimit: 10 }, 10_000],
  [
    'production',
    { rateLimit: 90_000, burstLimit: 5_000 },
    { rateLimit: 20_000, burstLimit: 2_000 },
    1_500_000_000,
  ],
])('the %s template', (stage, methodThrottle, keyThrottle, quota) => {
  const modules = apiDefinitionFromModules();
  const template = fromTemplate(stage);

  it('has the methods and mock answers of the shared modules', () => {
    expect(methodsOf(template)).toEqual(methodsOf(modules));
  });

  it('has the gateway responses of the shared modules', () => {
    expect(template.gatewayResponses).toEqual(modules.gatewayResponses);
  });

  it("has the authorizer's header, expression and cache TTL", () => {
    expect(template.authorizer).toEqual({
      header: AUTHORIZER.header,
      validationRegex: AUTHORIZER.validationRegex,
      resultsCacheTtlSeconds: STAGE_SETTINGS[stage as StageName].authorizerCacheSeconds,
      functionName: 'AuthorizerFunction:live',
    });
  });

  it("invokes each route's function through its alias live", () => {
    const invoked = template.methods.flatMap(({ resource, httpMethod, integration }) =>
      integration.type === 'AWS_PROXY' ? [`${httpMethod} ${resource} ${integration.functionName}`] : [],
    );
    expect(invoked.sort()).toEqual([
      'GET /pets ListPetsFunction:live',
      'GET /pets/{petId} GetPetFunction:live',
      'POST /pets CreatePetFunction:live',
    ]);
  });

  it('compresses as the stack says, as npm start does', () => {
    expect(template.minimumCompressionSize).toBe(MINIMUM_COMPRESSION_BYTES);
    expect(modules.minimumCompressionSize).toBe(MINIMUM_COMPRESSION_BYTES);
  });

  it("has the stage's limits", () => {
    expect(template.methodThrottle).toEqual(methodThrottle);
    expect(template.usagePlan).toEqual({ throttle: keyThrottle, quota: { limit: quota, period: 'DAY' } });
  });

  it("caches what the stage's settings cache: GET /pets by its query and If-None-Match, or nothing", () => {
    const cached = template.methods.flatMap(({ resource, httpMethod, cache }) =>
      cache ? [{ method: `${httpMethod} ${resource}`, ...cache }] : [],
    );
    const listCache = STAGE_SETTINGS[stage as StageName].listCache;
    const keyParameters = [
      ...['limit', 'status', 'cursor'].map((name) => `method.request.querystring.${name}`),
      'method.request.header.If-None-Match',
    ];
    expect(cached).toEqual(
      listCache ? [{ method: 'GET /pets', ttlSeconds: listCache.ttlSeconds, keyParameters }] : [],
    );
    expect(modules.methods.filter((method) => method.cache)).toEqual([]);
  });
});

describe("the gateway's own answers from the staging template", () => {
  const context = {
    requestId: 'r-1',
    httpMethod: 'GET',
    resourcePath: '/pets',
    path: '/v1/pets',
    stage: 'v1',
  };
  const answer = (gatewayResponses: ApiDefinition['gatewayResponses']) => {
    const { statusCode, body } = gatewayAnswer({ gatewayResponses }, 'ACCESS_DENIED', context);
    return { statusCode, body: JSON.parse(body) as unknown };
  };
  const { gatewayResponses } = fromTemplate('staging');
  const { ACCESS_DENIED: _customized, ...uncustomized } = gatewayResponses;

  it('answer a customized type with its own response', () => {
    expect(answer(gatewayResponses)).toEqual({
      statusCode: 403,
      body: { code: 'forbidden', message: 'This API key is read-only: it may call GET only.', status: 403 },
    });
  });

  it("follow API Gateway's rule: DEFAULT_4XX's status is that of every 4XX type not customized", () => {
    expect(uncustomized.DEFAULT_4XX?.status).toBe(400);
    expect(answer(uncustomized)).toEqual({
      statusCode: 400,
      body: expect.objectContaining({ code: 'validation_error', status: 400 }),
    });
    // A customized type without a status code takes DEFAULT_4XX's too.
    const { status: _status, ...withoutStatus } = defined(
      gatewayResponses.ACCESS_DENIED,
      'a gateway response',
    );
    expect(answer({ ...gatewayResponses, ACCESS_DENIED: withoutStatus }).statusCode).toBe(400);
    // Without a status on DEFAULT_4XX, each type keeps API Gateway's own (403 for ACCESS_DENIED).
    const { status: _default, ...defaultWithoutStatus } = defined(
      uncustomized.DEFAULT_4XX,
      'a gateway response',
    );
    expect(answer({ ...uncustomized, DEFAULT_4XX: defaultWithoutStatus }).statusCode).toBe(403);
  });
});

describe('a template the stage run refuses, as API Gateway would fail it', () => {
  /** The staging template with the resources `edit` returns (it may change those it is given). */
  const edited = (edit: (resources: CloudTemplate['Resources']) => CloudTemplate['Resources']) => {
    const template = structuredClone(templateOf('staging'));
    template.Resources = edit(template.Resources);
    return () => apiDefinitionFromTemplate(createTemplateReader(template));
  };
  const ofType = (resources: CloudTemplate['Resources'], type: string) =>
    Object.entries(resources).filter(([, resource]) => resource.Type === type);

  it('an alias API Gateway has no permission to invoke', () => {
    const withoutPermission = edited((resources) => {
      const kept = Object.entries(resources).filter(
        ([, resource]) =>
          resource.Type !== 'AWS::Lambda::Permission' ||
          !JSON.stringify(resource.Properties?.FunctionName).includes('GetPetLive'),
      );
      return Object.fromEntries(kept);
    });
    expect(withoutPermission).toThrow(
      /^API Gateway may not invoke GetPetLive\w+: no AWS::Lambda::Permission allows it$/,
    );
  });

  it('a cache key naming a parameter the method does not declare', () => {
    const withCache = structuredClone(templateOf('production'));
    const [listPets] = Object.values(withCache.Resources).filter(
      (resource) =>
        resource.Type === 'AWS::ApiGateway::Method' &&
        (resource.Properties?.Integration as { CacheKeyParameters?: unknown } | undefined)
          ?.CacheKeyParameters,
    );
    if (!listPets?.Properties) throw new Error("production's template caches no method");
    (listPets.Properties.Integration as { CacheKeyParameters: string[] }).CacheKeyParameters.push(
      'method.request.header.Authorization',
    );
    expect(() => apiDefinitionFromTemplate(createTemplateReader(withCache))).toThrow(
      /^GET \/pets cannot be cached by method\.request\.header\.Authorization: /,
    );
  });

  it("an alias that points at another function's version", () => {
    const crossed = edited((resources) => {
      const [[, getPetAlias] = []] = ofType(resources, 'AWS::Lambda::Alias').filter(([id]) =>
        id.startsWith('GetPetLive'),
      );
      const [[listPetsVersionId] = []] = ofType(resources, 'AWS::Lambda::Version').filter(([id]) =>
        id.startsWith('ListPetsFunctionCurrentVersion'),
      );
      if (!getPetAlias?.Properties || !listPetsVersionId)
        throw new Error('no GetPet alias or ListPets version');
      getPetAlias.Properties.FunctionVersion = { 'Fn::GetAtt': [listPetsVersionId, 'Version'] };
      return resources;
    });
    expect(crossed).toThrow(
      /^The alias GetPetLive\w+ does not point at a published version of its function$/,
    );
  });
});
