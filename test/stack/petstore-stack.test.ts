// The synthesized staging and production stacks, resource by resource: what API Gateway, IAM,
// Lambda, DynamoDB and CloudWatch will be told to build. One synthesis serves every test.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ErrorBody } from '#shared/errors.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';
import { RESPONSE_HEADERS } from '#shared/http/responses.ts';
import { ALLOWED_METHODS, AUTHORIZER, ROUTES, STAGE_NAME } from '#shared/http/routes.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/timeouts.ts';
import { defined, synthesizeApp } from './synthesize.ts';
import type { Properties, SynthesizedStage } from './synthesize.ts';
import {
  arnOf,
  environmentOf,
  logGroupOf,
  methodsByPath,
  ref,
  renderJson,
  roleOf,
  roleStatements,
  sortStatements,
} from './templates.ts';

const synthesized = synthesizeApp();

const FUNCTION_IDS = ['ListPetsFunction', 'CreatePetFunction', 'GetPetFunction', 'AuthorizerFunction'];
const ROUTE_FUNCTION_IDS = {
  listPets: 'ListPetsFunction',
  createPet: 'CreatePetFunction',
  getPet: 'GetPetFunction',
};

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, settings, template } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');
  const [apiId, api] = stage.only('AWS::ApiGateway::RestApi');
  const [stageId, apiStage] = stage.only('AWS::ApiGateway::Stage');
  const [authorizerId, authorizer] = stage.only('AWS::ApiGateway::Authorizer');
  const kept = settings.removalPolicy === 'retain' ? 'Retain' : 'Delete';

  test('the table: keys and index of shared/store/table.ts, on demand, PITR, TTL, stage protection', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: kept,
      UpdateReplacePolicy: kept,
      Properties: {
        TableName: `petstore-${name}`,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((attribute) => ({
          AttributeName: attribute,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byStatus',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        DeletionProtectionEnabled: settings.deletionProtection,
      },
    });
  });

  test.each(FUNCTION_IDS)('%s: nodejs24.x on ARM64, traced, JSON logs to its own log group', (functionId) => {
    expect(stage.resource(functionId).Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: settings.functionMemoryMb,
      Timeout: FUNCTION_TIMEOUT_SECONDS,
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogFormat: 'JSON' },
    });
    expect(environmentOf(stage, functionId)).toMatchObject({
      PETSTORE_TABLE_NAME: ref(tableId),
      POWERTOOLS_SERVICE_NAME: 'petstore',
      POWERTOOLS_METRICS_NAMESPACE: 'PetStore',
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(stage.resource(logGroupOf(stage, functionId))).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      DeletionPolicy: kept,
      Properties: { RetentionInDays: settings.logRetention },
    });
  });

  test.each(FUNCTION_IDS)(
    '%s is one minified ESM bundle, AWS SDK inside, with a source map',
    (functionId) => {
      const assetPath = defined(stage.resource(functionId).Metadata?.['aws:asset:path'], 'asset path');
      const bundle = join(synthesized.stages[name].outdir, assetPath, 'index.mjs');
      const code = readFileSync(bundle, 'utf8');
      expect(code.startsWith("import { createRequire } from 'node:module';")).toBe(true);
      const imported = [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\)/g)].map(
        ([, from, dynamic]) => from ?? dynamic ?? '',
      );
      expect(imported.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
      // Minified: thousands of characters a line (template literals keep their own line breaks).
      expect(code.length / code.split('\n').length).toBeGreaterThan(1_000);
      expect(existsSync(`${bundle}.map`)).toBe(true);
    },
  );

  test('only listPets gets the cursor secret, as a dynamic reference to the generated secret', () => {
    const [secretId] = stage.only('AWS::SecretsManager::Secret');
    template.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: kept,
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } },
    });
    expect(environmentOf(stage, 'ListPetsFunction').PETSTORE_CURSOR_SECRET).toEqual({
      'Fn::Join': ['', ['{{resolve:secretsmanager:', ref(secretId), ':SecretString:::}}']],
    });
    for (const functionId of FUNCTION_IDS.filter((id) => id !== 'ListPetsFunction')) {
      expect(environmentOf(stage, functionId)).not.toHaveProperty('PETSTORE_CURSOR_SECRET');
    }
  });

  describe('IAM: each function role holds exactly its log group, X-Ray and its table access', () => {
    const onTable = (actions: string[], partitions: string[]) => ({
      Action: actions.length === 1 ? actions[0] : actions,
      Effect: 'Allow',
      Resource: arnOf(tableId),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } },
    });
    const onStatusIndex = {
      Action: 'dynamodb:Query',
      Effect: 'Allow',
      Resource: { 'Fn::Join': ['', [arnOf(tableId), '/index/byStatus']] },
    };
    const readPets = [onTable(['dynamodb:GetItem', 'dynamodb:Query'], ['PET']), onStatusIndex];
    const tableAccess: Record<string, unknown[]> = {
      ListPetsFunction: readPets,
      GetPetFunction: readPets,
      CreatePetFunction: [
        onTable(['dynamodb:GetItem', 'dynamodb:PutItem'], ['PET', 'IDEMPOTENCY#*']),
        onTable(['dynamodb:UpdateItem'], ['COUNTER', 'IDEMPOTENCY#*']),
      ],
      AuthorizerFunction: [onTable(['dynamodb:GetItem'], ['APIKEY'])],
    };

    test.each(FUNCTION_IDS)('%s', (functionId) => {
      expect(roleStatements(stage, functionId)).toEqual(
        sortStatements([
          {
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Effect: 'Allow',
            Resource: arnOf(logGroupOf(stage, functionId)),
          },
          {
            Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
            Effect: 'Allow',
            Resource: '*',
          },
          ...defined(tableAccess[functionId], functionId),
        ]),
      );
      const role = stage.resource(roleOf(stage, functionId)).Properties;
      expect(role).not.toHaveProperty('ManagedPolicyArns');
      expect(role).not.toHaveProperty('Policies');
    });
  });

  test('the REST API and its stage v1: throttling, JSON access logs, error execution logs, X-Ray', () => {
    expect(api.Properties).toMatchObject({
      Name: `petstore-${name}`,
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    expect(apiStage.Properties).toMatchObject({
      StageName: STAGE_NAME,
      RestApiId: ref(apiId),
      TracingEnabled: true,
      MethodSettings: [
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: settings.throttling.rateLimit,
          ThrottlingBurstLimit: settings.throttling.burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          MetricsEnabled: true,
        },
      ],
    });
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

  test('the TOKEN authorizer: Authorization header, the Bearer regex, the cache TTL', () => {
    expect(authorizer.Properties).toMatchObject({
      Type: 'TOKEN',
      RestApiId: ref(apiId),
      IdentitySource: `method.request.header.${AUTHORIZER.header}`,
      IdentityValidationExpression: AUTHORIZER.validationRegex,
      AuthorizerResultTtlInSeconds: AUTHORIZER.resultsCacheTtlSeconds,
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(
      JSON.stringify(arnOf('AuthorizerFunction')),
    );
  });

  describe('methods', () => {
    const methods = methodsByPath(stage);
    const methodAt = (path: string, httpMethod: string): Properties => {
      const found = methods.filter((method) => method.path === path && method.httpMethod === httpMethod);
      expect(found).toHaveLength(1);
      return defined(found[0], `${httpMethod} ${path}`).properties;
    };

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

    test.each(ROUTES)('$method $path invokes the $operationId function (proxy)', (route) => {
      const method = methodAt(route.path, route.method);
      expect(method).toMatchObject({
        OperationName: route.operationId,
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
      });
      expect(JSON.stringify((method.Integration as Properties).Uri)).toContain(
        JSON.stringify(arnOf(ROUTE_FUNCTION_IDS[route.operationId])),
      );
    });

    type MockIntegration = {
      Type: string;
      PassthroughBehavior: string;
      RequestTemplates: Record<string, string>;
      IntegrationResponses: {
        StatusCode: string;
        ResponseTemplates: unknown;
        ResponseParameters: Properties;
      }[];
    };

    /** The one answer of the mock integration of ANY at this path, checked against its method. */
    const mockAnswer = (path: string) => {
      const method = methodAt(path, 'ANY');
      const integration = method.Integration as MockIntegration;
      expect(integration).toMatchObject({ Type: 'MOCK', PassthroughBehavior: 'WHEN_NO_MATCH' });
      const [response, ...others] = integration.IntegrationResponses;
      expect(others).toEqual([]);
      const { StatusCode, ResponseTemplates, ResponseParameters } = defined(response, 'integration response');
      expect(renderJson(integration.RequestTemplates)).toEqual({ statusCode: Number(StatusCode) });
      const body = ErrorBody.parse(renderJson(ResponseTemplates));
      expect(body.status).toBe(Number(StatusCode));
      expect(method.MethodResponses).toEqual([
        {
          StatusCode,
          ResponseParameters: Object.fromEntries(
            Object.keys(ResponseParameters).map((header) => [header, true]),
          ),
        },
      ]);
      for (const [header, value] of Object.entries(RESPONSE_HEADERS)) {
        expect(ResponseParameters[`method.response.header.${header}`]).toBe(`'${value}'`);
      }
      return { body, headers: ResponseParameters };
    };

    test.each(['/', '/{proxy+}'])('ANY %s answers 404 not_found (unknown path)', (path) => {
      expect(mockAnswer(path).body).toMatchObject({ code: 'not_found', status: 404 });
    });

    test.each(Object.entries(ALLOWED_METHODS))('ANY %s answers 405 with Allow: %s', (path, allowed) => {
      const { body, headers } = mockAnswer(path);
      expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
      expect(headers['method.response.header.Allow']).toBe(`'${allowed.join(', ')}'`);
    });
  });

  describe('gateway responses', () => {
    const responses = new Map(
      stage
        .all('AWS::ApiGateway::GatewayResponse')
        .map(([, resource]) => [String(resource.Properties.ResponseType), resource.Properties]),
    );

    test('every type that can reach a client, and only those of the shared module', () => {
      expect([...responses.keys()].sort()).toEqual(GATEWAY_RESPONSES.map(({ type }) => type).sort());
      expect([...responses.keys()]).toEqual(
        expect.arrayContaining([
          'UNAUTHORIZED',
          'ACCESS_DENIED',
          'MISSING_AUTHENTICATION_TOKEN',
          'BAD_REQUEST_PARAMETERS',
          'BAD_REQUEST_BODY',
          'REQUEST_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'THROTTLED',
          'QUOTA_EXCEEDED',
          'AUTHORIZER_FAILURE',
          'AUTHORIZER_CONFIGURATION_ERROR',
          'INTEGRATION_FAILURE',
          'INTEGRATION_TIMEOUT',
          'DEFAULT_4XX',
          'DEFAULT_5XX',
        ]),
      );
    });

    test.each(GATEWAY_RESPONSES)(
      '$type renders an Error object whose status is its status code',
      (expected) => {
        const response = defined(responses.get(expected.type), expected.type);
        expect(response.RestApiId).toEqual(ref(apiId));
        const body = ErrorBody.parse(renderJson(response.ResponseTemplates));
        expect(body.status).toBe(Number(response.StatusCode));
        expect(body).toEqual(expected.body);
        const headers = (values: Record<string, string>) =>
          Object.fromEntries(
            Object.entries(values).map(([header, value]) => [
              `gatewayresponse.header.${header}`,
              `'${value}'`,
            ]),
          );
        expect(response.ResponseParameters).toEqual(headers(expected.headers));
        expect(response.ResponseParameters).toMatchObject(headers(RESPONSE_HEADERS));
      },
    );
  });

  test('per-key limits: a usage plan on stage v1, keys coming from the authorizer', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: settings.perKeyLimits.rateLimit, BurstLimit: settings.perKeyLimits.burstLimit },
      Quota: { Limit: settings.perKeyLimits.requestsPerDay, Period: 'DAY' },
      ApiStages: [Match.objectLike({ ApiId: ref(apiId), Stage: ref(stageId) })],
    });
  });

  describe('alarms', () => {
    const [topicId, topic] = stage.only('AWS::SNS::Topic');
    const alarms = new Map(
      stage
        .all('AWS::CloudWatch::Alarm')
        .map(([, alarm]) => [String(alarm.Properties.AlarmName), alarm.Properties]),
    );
    const alarm = (id: string) => defined(alarms.get(`petstore-${name}-${id}`), id);

    test('ten alarms, each notifying the stage topic on alarm and on recovery', () => {
      expect([...alarms.keys()].sort()).toEqual(
        [
          'Api5xx',
          'ApiP99Latency',
          'listPetsErrors',
          'createPetErrors',
          'getPetErrors',
          'listPetsThrottles',
          'createPetThrottles',
          'getPetThrottles',
          'authorizerThrottles',
          'DynamoDbThrottles',
        ]
          .map((id) => `petstore-${name}-${id}`)
          .sort(),
      );
      for (const properties of alarms.values()) {
        expect(properties).toMatchObject({ AlarmActions: [ref(topicId)], OKActions: [ref(topicId)] });
      }
    });

    test('API 5xx and p99 latency of stage v1, with the stage thresholds', () => {
      const dimensions = [
        { Name: 'ApiName', Value: `petstore-${name}` },
        { Name: 'Stage', Value: ref(stageId) },
      ];
      expect(alarm('Api5xx')).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        MetricName: '5XXError',
        Dimensions: dimensions,
        Statistic: 'Sum',
        Threshold: settings.alarms.serverErrorsPer5Minutes,
      });
      expect(alarm('ApiP99Latency')).toMatchObject({
        MetricName: 'Latency',
        Dimensions: dimensions,
        ExtendedStatistic: 'p99',
        Threshold: settings.alarms.p99LatencyMs,
        EvaluationPeriods: 3,
      });
    });

    test('Lambda errors of the route functions and throttles of every function', () => {
      for (const [operationId, functionId] of Object.entries(ROUTE_FUNCTION_IDS)) {
        expect(alarm(`${operationId}Errors`)).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: ref(functionId) }],
          Threshold: settings.alarms.functionErrorsPer5Minutes,
        });
      }
      expect(alarm('authorizerThrottles')).toMatchObject({
        MetricName: 'Throttles',
        Dimensions: [{ Name: 'FunctionName', Value: ref('AuthorizerFunction') }],
        Threshold: 1,
      });
    });

    test('DynamoDB throttle events of the table and its index, missing data as zero', () => {
      const metrics = alarm('DynamoDbThrottles').Metrics as Properties[];
      expect(metrics[0]).toMatchObject({
        Expression: 'FILL(tableReads, 0) + FILL(tableWrites, 0) + FILL(indexReads, 0)',
      });
      expect(JSON.stringify(metrics)).toContain(JSON.stringify({ Name: 'TableName', Value: ref(tableId) }));
      expect(JSON.stringify(metrics)).toContain('"GlobalSecondaryIndexName"');
    });

    test('the topic is encrypted with a rotated key CloudWatch may use, and refuses plain HTTP', () => {
      const [keyId] = stage.only('AWS::KMS::Key');
      expect(topic.Properties.KmsMasterKeyId).toEqual(arnOf(keyId));
      template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
      template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
            Match.objectLike({
              Effect: 'Allow',
              Action: 'sns:Publish',
              Principal: { Service: 'cloudwatch.amazonaws.com' },
            }),
          ]),
        },
      });
    });
  });

  test('outputs: the base address ending in /v1 and the table name', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['AlarmTopicArn', 'ApiUrl', 'TableName', 'UsagePlanId']);
    const url = outputs.ApiUrl?.Value as { 'Fn::Join': [string, unknown[]] };
    const parts = url['Fn::Join'][1];
    expect(parts[0]).toBe('https://');
    expect(parts[1]).toEqual(ref(apiId));
    expect(parts.at(-1)).toBe(`/${STAGE_NAME}`);
    expect(outputs.TableName?.Value).toEqual(ref(tableId));
  });

  test('synthesis reports no error or warning', () => {
    const annotations = Annotations.fromStack(synthesized.stages[name].stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });

  test('sam/env.json overrides variables each function declares, keyed by its logical id', () => {
    const overrides = JSON.parse(readFileSync('sam/env.json', 'utf8')) as Record<string, Properties>;
    expect(Object.keys(overrides).sort()).toEqual([...FUNCTION_IDS].sort());
    for (const [functionId, variables] of Object.entries(overrides)) {
      for (const variable of Object.keys(variables)) {
        expect(environmentOf(stage, functionId)).toHaveProperty([variable]);
      }
    }
  });
});

describe('cdk-nag AwsSolutions', () => {
  test('finds nothing that is not acknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(synthesized.app);
    expect(
      report.violations.map(({ ruleName, violatingResources }) => ({ ruleName, violatingResources })),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  test('every acknowledgement gives its reason', () => {
    const reasons: unknown[] = [];
    const visit = (construct: IConstruct) => {
      for (const { type, data } of construct.node.metadata) {
        if (type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          reasons.push(...Object.values(data as Properties));
      }
      construct.node.children.forEach(visit);
    };
    visit(synthesized.app);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(String(reason).length).toBeGreaterThan(40);
  });
});
