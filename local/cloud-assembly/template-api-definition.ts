// The local gateway's definition read from a synthesized template: the REST API's resources and
// methods (Lambda proxy integrations name the alias or function they invoke; mock integrations answer
// with the integration response their request template selects), the stage's cache of each method, its
// TOKEN authorizer, gateway responses, the stage's throttling, the usage plan's limits and compression.
import type {
  ApiDefinition,
  ApiMethodDefinition,
  GatewayResponseDefinition,
  Integration,
  MethodCacheDefinition,
  RateLimit,
  UsagePlanDefinition,
} from '#local/api-gateway/definition.ts';
import { referencedIds } from '#local/cloud-assembly/template.ts';
import type { TemplateReader } from '#local/cloud-assembly/template.ts';

type Properties = Record<string, unknown>;
const JSON_TYPE = 'application/json';

/** `'value'` -> value: static header values are quoted; anything else cannot be reproduced here. */
function staticHeaders(parameters: unknown, prefix: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries((parameters ?? {}) as Record<string, string>)) {
    if (name.startsWith(prefix) && /^'.*'$/s.test(value))
      headers[name.slice(prefix.length)] = value.slice(1, -1);
  }
  return headers;
}

/**
 * What a Lambda integration's URI (or an authorizer's) invokes, as the function runner names it:
 * `<function id>:<alias>` through an alias, else the function's id. As in API Gateway, the call
 * needs a permission on exactly that target, and an alias must point at a version of its function.
 */
function invocationTarget(reader: TemplateReader, uri: unknown): string {
  const ids = referencedIds(uri);
  const typed = (type: string) => ids.find((id) => reader.resources[id]?.Type === type);
  const aliasId = typed('AWS::Lambda::Alias');
  const target = aliasId ?? typed('AWS::Lambda::Function');
  if (!target) throw new Error(`No Lambda function or alias in the integration URI ${JSON.stringify(uri)}`);
  const permitted = reader
    .ofType('AWS::Lambda::Permission')
    .some(
      ({ Properties: permission }) =>
        permission.Principal === 'apigateway.amazonaws.com' &&
        permission.Action === 'lambda:InvokeFunction' &&
        referencedIds(permission.FunctionName).includes(target),
    );
  if (!permitted)
    throw new Error(`API Gateway may not invoke ${target}: no AWS::Lambda::Permission allows it`);
  if (!aliasId) return target;

  const alias = reader.resources[aliasId]?.Properties ?? {};
  const [functionId] = referencedIds(alias.FunctionName);
  const [versionId = ''] = referencedIds(alias.FunctionVersion);
  const version = reader.resources[versionId];
  const versionOf = referencedIds(version?.Properties?.FunctionName)[0];
  if (!functionId || version?.Type !== 'AWS::Lambda::Version' || versionOf !== functionId)
    throw new Error(`The alias ${aliasId} does not point at a published version of its function`);
  return `${functionId}:${String(alias.Name)}`;
}

function mockIntegration(reader: TemplateReader, integration: Properties): Integration {
  const requested = JSON.parse(
    String((integration.RequestTemplates as Properties | undefined)?.[JSON_TYPE] ?? '{}'),
  ) as {
    statusCode?: number;
  };
  const responses = (integration.IntegrationResponses ?? []) as Properties[];
  const selected =
    responses.find((response) => Number(response.StatusCode) === requested.statusCode) ??
    responses.find((response) => response.SelectionPattern === undefined);
  if (!selected) return { type: 'MOCK', status: 200, headers: {}, body: '' };
  return {
    type: 'MOCK',
    status: Number(reader.resolve(selected.StatusCode)),
    headers: staticHeaders(reader.resolve(selected.ResponseParameters), 'method.response.header.'),
    body: String((reader.resolve(selected.ResponseTemplates) as Properties | undefined)?.[JSON_TYPE] ?? ''),
  };
}

/** A method setting's ResourcePath, `/~1pets~1{petId}` (a JSON pointer's escapes): `/pets/{petId}`. */
const settingResource = (resourcePath: string) =>
  resourcePath.slice(1).replaceAll('~1', '/').replaceAll('~0', '~');

/** The request parameters a cache key may name (API Gateway refuses the multi-value ones). */
const CACHE_KEY_PARAMETER = /^method\.request\.(querystring|path|header)\.[^.]+$/;

/**
 * How the stage caches a method: only with a cache cluster; caching and TTL from the method's own
 * setting, else the stage-wide one (whose caching API Gateway applies to GET methods only), 300 s
 * when neither sets a TTL; keyed by the integration's CacheKeyParameters, each a parameter the method
 * declares (API Gateway refuses others).
 */
function methodCache(
  stage: Properties | undefined,
  { resource, httpMethod }: Pick<ApiMethodDefinition, 'resource' | 'httpMethod'>,
  method: Properties,
): MethodCacheDefinition | undefined {
  if (stage?.CacheClusterEnabled !== true) return undefined;
  const settings = (stage.MethodSettings ?? []) as Properties[];
  const stageWide = settings.find((setting) => setting.ResourcePath === '/*' && setting.HttpMethod === '*');
  const own = settings.find(
    (setting) =>
      setting !== stageWide &&
      setting.HttpMethod === httpMethod &&
      settingResource(String(setting.ResourcePath)) === resource,
  );
  const enabled = own?.CachingEnabled ?? (httpMethod === 'GET' ? stageWide?.CachingEnabled : false);
  const ttlSeconds = Number(own?.CacheTtlInSeconds ?? stageWide?.CacheTtlInSeconds ?? 300);
  if (enabled !== true || ttlSeconds <= 0) return undefined;

  const declared = Object.keys((method.RequestParameters ?? {}) as Properties);
  const integration = method.Integration as Properties;
  const keyParameters = ((integration.CacheKeyParameters ?? []) as unknown[]).map(String);
  for (const parameter of keyParameters) {
    if (!CACHE_KEY_PARAMETER.test(parameter) || !declared.includes(parameter))
      throw new Error(
        `${httpMethod} ${resource} cannot be cached by ${parameter}: not a query string, path or header parameter it declares`,
      );
  }
  return { ttlSeconds, keyParameters };
}

export function apiDefinitionFromTemplate(reader: TemplateReader): ApiDefinition {
  const [restApi] = reader.ofType('AWS::ApiGateway::RestApi');
  if (!restApi) throw new Error('The template has no AWS::ApiGateway::RestApi');
  const resourcePaths = new Map<string, string>();
  const pathOf = (resourceId: unknown): string => {
    // The root is Fn::GetAtt [api, RootResourceId]; every other resource is a Ref.
    const [id = ''] = referencedIds(resourceId);
    if (id === restApi.logicalId) return '/';
    const known = resourcePaths.get(id);
    if (known !== undefined) return known;
    const { ParentId, PathPart } = reader.resources[id]?.Properties ?? {};
    const parent = pathOf(ParentId);
    const path = `${parent === '/' ? '' : parent}/${String(PathPart)}`;
    resourcePaths.set(id, path);
    return path;
  };

  const [stage] = reader.ofType('AWS::ApiGateway::Stage');
  const methods: ApiMethodDefinition[] = reader
    .ofType('AWS::ApiGateway::Method')
    .map(({ Properties: method }) => {
      const integration = method.Integration as Properties;
      const route = { resource: pathOf(method.ResourceId), httpMethod: String(method.HttpMethod) };
      const cache = methodCache(stage?.Properties, route, method);
      return {
        ...route,
        authorized: method.AuthorizationType === 'CUSTOM',
        integration:
          integration.Type === 'MOCK'
            ? mockIntegration(reader, integration)
            : { type: 'AWS_PROXY', functionName: invocationTarget(reader, integration.Uri) },
        ...(cache && { cache }),
      };
    });

  const [authorizer] = reader.ofType('AWS::ApiGateway::Authorizer');
  if (authorizer?.Properties.Type !== 'TOKEN')
    throw new Error('The stage run serves a TOKEN authorizer only');
  const identitySource = String(authorizer.Properties.IdentitySource);

  const gatewayResponses: Record<string, GatewayResponseDefinition> = {};
  for (const { Properties: response } of reader.ofType('AWS::ApiGateway::GatewayResponse')) {
    const resolved = reader.resolve(response) as Properties;
    gatewayResponses[String(resolved.ResponseType)] = {
      status: resolved.StatusCode === undefined ? undefined : Number(resolved.StatusCode),
      headers: staticHeaders(resolved.ResponseParameters, 'gatewayresponse.header.'),
      template: String((resolved.ResponseTemplates as Properties | undefined)?.[JSON_TYPE] ?? ''),
    };
  }

  const allMethods = ((stage?.Properties.MethodSettings ?? []) as Properties[]).find(
    (setting) => setting.ResourcePath === '/*' && setting.HttpMethod === '*',
  );
  const [usagePlan] = reader.ofType('AWS::ApiGateway::UsagePlan');
  return {
    stageName: String(stage?.Properties.StageName ?? 'v1'),
    methods,
    authorizer: {
      header: identitySource.replace(/^method\.request\.header\./, ''),
      validationRegex: String(authorizer.Properties.IdentityValidationExpression ?? '.*'),
      resultsCacheTtlSeconds: Number(authorizer.Properties.AuthorizerResultTtlInSeconds ?? 300),
      functionName: invocationTarget(reader, authorizer.Properties.AuthorizerUri),
    },
    gatewayResponses,
    methodThrottle: rateLimitOf(allMethods?.ThrottlingRateLimit, allMethods?.ThrottlingBurstLimit),
    usagePlan: usagePlan && usagePlanOf(reader.resolve(usagePlan.Properties) as Properties),
    ...(restApi.Properties.MinimumCompressionSize !== undefined && {
      minimumCompressionSize: Number(restApi.Properties.MinimumCompressionSize),
    }),
  };
}

function rateLimitOf(rate: unknown, burst: unknown): RateLimit | undefined {
  return rate === undefined || burst === undefined
    ? undefined
    : { rateLimit: Number(rate), burstLimit: Number(burst) };
}

function usagePlanOf({ Throttle, Quota }: Properties): UsagePlanDefinition {
  const throttle = (Throttle ?? {}) as Properties;
  const quota = Quota as { Limit?: number; Period?: 'DAY' | 'WEEK' | 'MONTH' } | undefined;
  return {
    throttle: rateLimitOf(throttle.RateLimit, throttle.BurstLimit),
    quota: quota?.Limit === undefined ? undefined : { limit: quota.Limit, period: quota.Period ?? 'DAY' },
  };
}
