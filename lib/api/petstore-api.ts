// The REST API: stage `v1`, the methods of shared/http/api-methods.ts behind the TOKEN authorizer (404
// and 405 by API Gateway itself), gateway responses as Error objects, compression, throttling, access
// and execution logs, X-Ray and the per-key usage plan. As the settings say: the stage cache of
// `GET /pets`, and a regional custom domain whose base path `v1` maps to stage `v1`.
import { Duration, Fn, RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import {
  ApiKeySourceType,
  DomainName,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  Period,
  RestApi,
  SecurityPolicy,
  TokenAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type {
  IAuthorizer,
  MethodDeploymentOptions,
  StageOptions,
  UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ACCESS_LOG_FORMAT } from '#lib/api/access-log-format.ts';
import { addAccessLogMetrics } from '#lib/api/access-log-metrics.ts';
import type { AccessLogMetrics } from '#lib/api/access-log-metrics.ts';
import { addErrorMethod, addGatewayResponses } from '#lib/api/gateway-responses.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { AUTHORIZER, BASE_PATH, MINIMUM_COMPRESSION_BYTES, STAGE_NAME } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';

export type PetstoreApiProps = {
  settings: StageSettings;
  routeFunctions: Record<OperationId, IFunction>;
  authorizerFunction: IFunction;
};

export class PetstoreApi extends Construct {
  readonly restApi: RestApi;
  readonly usagePlan: UsagePlan;
  /** One JSON line per request (lib/api/access-log-format.ts). */
  readonly accessLogs: LogGroup;
  /** What only the access log can count (lib/api/access-log-metrics.ts). */
  readonly accessLogMetrics: AccessLogMetrics;
  /** The custom domain, when the settings have one. */
  readonly domain?: DomainName;
  /**
   * The base address clients use: https://<domain name>/v1 with a custom domain, else
   * https://<id>.execute-api.<region>.<suffix>/v1
   */
  readonly url: string;

  constructor(
    scope: Construct,
    id: string,
    { settings, routeFunctions, authorizerFunction }: PetstoreApiProps,
  ) {
    super(scope, id);
    const logs = { retention: settings.logRetention, removalPolicy: settings.removalPolicy };
    this.accessLogs = new LogGroup(this, 'AccessLogs', logs);
    const methodSettings = {
      throttlingRateLimit: settings.throttling.rateLimit,
      throttlingBurstLimit: settings.throttling.burstLimit,
      metricsEnabled: true,
      loggingLevel: settings.executionLogLevel,
      // Data traces would log request headers, Authorization (the API key) included.
      dataTraceEnabled: false,
    } satisfies MethodDeploymentOptions;

    this.restApi = new RestApi(this, 'Api', {
      restApiName: `petstore-${settings.name}`,
      description: `Pet store API (${settings.name})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Execution logs need the account's API Gateway CloudWatch role. It is one setting per
      // account and region, so both stages may set it: RETAIN keeps it valid if one stack goes.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      minCompressionSize: Size.bytes(MINIMUM_COMPRESSION_BYTES),
      deployOptions: {
        stageName: STAGE_NAME,
        ...methodSettings,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        ...(settings.listCache && stageCache(settings.listCache, methodSettings)),
      },
    });
    this.accessLogMetrics = addAccessLogMetrics(this, this.accessLogs, this.restApi.restApiName);
    // RestApi's own Endpoint output ends in '/v1/'; the stack outputs `url` instead.
    this.restApi.node.tryRemoveChild('Endpoint');
    const executeApiHost = `${this.restApi.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
    this.domain = settings.customDomain && this.addCustomDomain(settings.customDomain);
    this.url = `https://${settings.customDomain?.domainName ?? executeApiHost}${BASE_PATH}`;

    // API Gateway would create this log group itself, without retention.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      ...logs,
      logGroupName: Fn.join('', ['API-Gateway-Execution-Logs_', this.restApi.restApiId, `/${STAGE_NAME}`]),
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    const authorizer = new TokenAuthorizer(this, 'Authorizer', {
      authorizerName: 'bearer-api-key',
      handler: authorizerFunction,
      identitySource: IdentitySource.header(AUTHORIZER.header),
      validationRegex: AUTHORIZER.validationRegex,
      resultsCacheTtl: Duration.seconds(settings.authorizerCacheSeconds),
    });
    this.addMethods(routeFunctions, authorizer, settings.listCache !== undefined);

    // Each API key's share of the stage: the authorizer returns the key's hash as its usage
    // identifier, and `npm run keys -- create --stage` registers that hash in this plan.
    this.usagePlan = this.restApi.addUsagePlan('PerKeyLimits', {
      name: `petstore-${settings.name}-per-key`,
      throttle: { rateLimit: settings.perKeyLimits.rateLimit, burstLimit: settings.perKeyLimits.burstLimit },
      quota: { limit: settings.perKeyLimits.requestsPerDay, period: Period.DAY },
      apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
    });

    this.acknowledgeNagFindings(settings);
  }

  /**
   * The domain's base path is the stage's name, so `https://<domain>/v1/pets` reaches stage v1 with
   * the same paths, and the same `/v1/...` in requestContext.path, as the execute-api address.
   */
  private addCustomDomain({ domainName, certificateArn }: NonNullable<StageSettings['customDomain']>) {
    const domain = new DomainName(this, 'Domain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    domain.addBasePathMapping(this.restApi, { basePath: STAGE_NAME, stage: this.restApi.deploymentStage });
    return domain;
  }

  /**
   * Each method of shared/http/api-methods.ts: a function, or an Error from a mock integration. On a
   * stage with a cache, a cacheable method declares its cache key's parameters (none required).
   */
  private addMethods(
    routeFunctions: Record<OperationId, IFunction>,
    authorizer: IAuthorizer,
    cached: boolean,
  ) {
    for (const method of API_METHODS) {
      const resource = this.restApi.root.resourceForPath(method.resource);
      if (method.error) {
        addErrorMethod(resource, method.error, authorizer);
        continue;
      }
      const cacheKey =
        cached && method.cacheKeyQueryParameters
          ? [
              ...method.cacheKeyQueryParameters.map((name) => `method.request.querystring.${name}`),
              ...(method.cacheKeyHeaders ?? []).map((name) => `method.request.header.${name}`),
            ]
          : undefined;
      const integration = new LambdaIntegration(routeFunctions[method.operationId], {
        allowTestInvoke: false,
        ...(cacheKey && { cacheKeyParameters: cacheKey }),
      });
      resource.addMethod(method.httpMethod, integration, {
        authorizer,
        apiKeyRequired: true,
        operationName: method.operationId,
        ...(cacheKey && { requestParameters: Object.fromEntries(cacheKey.map((name) => [name, false])) }),
      });
    }
    addGatewayResponses(this.restApi);
  }

  private acknowledgeNagFindings(settings: StageSettings) {
    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'The functions validate every request (zod) so that messages name the field and the contract order of 413, 415 and 400 holds; an API Gateway validator would answer first, with its own messages.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Clients authenticate with API keys as bearer tokens (the specification), checked by the TOKEN authorizer on every method; there are no Cognito users.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The account-level role API Gateway uses to write execution logs; AWS's managed policy is the documented one for it.",
      },
    );
    if (!settings.firewall) {
      Validations.of(this.restApi.deploymentStage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF web ACL on this stage (its settings have no firewall): every request needs an API key and the stage is throttled; production has the web ACL of lib/api/petstore-firewall.ts.',
      });
    }
  }
}

/**
 * The stage cache: a cache cluster, caching off for every method (API Gateway would turn a stage-wide
 * setting on for every GET), and on, encrypted, for each cacheable method of shared/http/api-methods.ts
 * with the settings' TTL. An override is set only as far as the template says, so each one repeats the
 * stage's method settings (throttling, logs, metrics) rather than trust API Gateway to copy them.
 * Invalidation keeps API Gateway's defaults (CloudFormation has no property for them): it needs
 * execute-api:InvalidateCache, which the authorizer's policy never grants, and a `Cache-Control:
 * max-age=0` without it is ignored (answered from the cache), so no client can force a miss.
 */
function stageCache(
  { ttlSeconds, clusterSizeGb }: NonNullable<StageSettings['listCache']>,
  methodSettings: MethodDeploymentOptions,
): Partial<StageOptions> {
  const cached = API_METHODS.filter((method) => method.cacheKeyQueryParameters);
  return {
    cacheClusterEnabled: true,
    cacheClusterSize: clusterSizeGb,
    cachingEnabled: false,
    cacheDataEncrypted: true,
    methodOptions: Object.fromEntries(
      cached.map((method) => [
        `${method.resource}/${method.httpMethod}`,
        {
          ...methodSettings,
          cachingEnabled: true,
          cacheTtl: Duration.seconds(ttlSeconds),
          cacheDataEncrypted: true,
        },
      ]),
    ),
  };
}
