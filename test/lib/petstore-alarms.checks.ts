// The stage's alarms and their topic (lib/petstore-alarms.ts).
import { describe, expect, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { defined, synthesized } from '#test/lib/synthesize.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { ROUTE_FUNCTION_IDS, arnOf, ref } from '#test/lib/templates.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, settings, template } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');
  const [stageId] = stage.only('AWS::ApiGateway::Stage');

  describe('alarms', () => {
    const [topicId, topic] = stage.only('AWS::SNS::Topic');
    // By construct id: CloudFormation names the alarms (<stack>-Alarms<id><hash>-<suffix>). Those of
    // lib/petstore-alarms.ts only: other constructs' alarms have checks of their own.
    const alarms = new Map(
      stage
        .all('AWS::CloudWatch::Alarm')
        .filter(([logicalId]) => logicalId.startsWith('Alarms'))
        .map(([logicalId, alarm]) => [logicalId.replace(/^Alarms(\w+)[0-9A-F]{8}$/, '$1'), alarm.Properties]),
    );
    const alarm = (id: string) => defined(alarms.get(id), id);

    test('eighteen alarms, each notifying the stage topic on alarm and on recovery', () => {
      const routeAlarms = Object.keys(ROUTE_FUNCTION_IDS).flatMap((operationId) =>
        ['Errors', 'Throttles', '5xx', 'P99Latency'].map((kind) => `${operationId}${kind}`),
      );
      expect([...alarms.keys()].sort()).toEqual(
        [
          'Api5xx',
          'ApiP99Latency',
          ...routeAlarms,
          'authorizerThrottles',
          'authorizerFailures',
          'DynamoDbThrottles',
          'ProbeFailed',
        ].sort(),
      );
      expect(alarms.size).toBe(18);
      for (const properties of alarms.values()) {
        expect(properties).toMatchObject({ AlarmActions: [ref(topicId)], OKActions: [ref(topicId)] });
        expect(properties.AlarmName).toBeUndefined();
        expect(properties.AlarmDescription).toMatch(new RegExp(`^Pet store ${name}: `));
      }
    });

    test('API 5xx and p99 latency of stage v1, with the stage thresholds', () => {
      // The stage by its literal name: a Ref to the stage would close a circle through the rollout.
      expect(stage.resource(stageId).Properties.StageName).toBe('v1');
      const dimensions = [
        { Name: 'ApiName', Value: `petstore-${name}` },
        { Name: 'Stage', Value: 'v1' },
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
        // Per minute, 3 of 5: it can fire within a canary's 5 minutes.
        Period: 60,
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
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

    test.each(Object.keys(ROUTE_FUNCTION_IDS))(
      "%s: its own method's 5xx but the authorizer's, and its function's p99 as API Gateway sees it",
      (operationId) => {
        const method = API_METHODS.find((candidate) => candidate.operationId === operationId);
        expect(alarm(`${operationId}5xx`)).toMatchObject({
          Namespace: `PetStore/petstore-${name}`,
          MetricName: 'RouteServerErrors',
          Dimensions: [
            { Name: 'Method', Value: method?.httpMethod },
            { Name: 'Resource', Value: method?.resource },
          ],
          Statistic: 'Sum',
          Threshold: settings.alarms.serverErrorsPer5Minutes,
        });
        expect(alarm(`${operationId}P99Latency`)).toMatchObject({
          Namespace: 'AWS/ApiGateway',
          MetricName: 'IntegrationLatency',
          Dimensions: [
            { Name: 'ApiName', Value: `petstore-${name}` },
            { Name: 'Method', Value: method?.httpMethod },
            { Name: 'Resource', Value: method?.resource },
            { Name: 'Stage', Value: 'v1' },
          ],
          ExtendedStatistic: 'p99',
          Threshold: settings.alarms.p99LatencyMs,
          Period: 60,
        });
        // Per-method metrics exist only with detailed metrics on.
        const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
        expect(apiStage.Properties.MethodSettings).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', MetricsEnabled: true }),
          ]),
        );
      },
    );

    describe('metric filters on the access log', () => {
      const [accessLogsId = ''] =
        stage.all('AWS::Logs::LogGroup').find(([id]) => id.startsWith('ApiAccessLogs')) ?? [];
      const filters = new Map(
        stage
          .all('AWS::Logs::MetricFilter')
          .map(([, filter]) => [
            (filter.Properties.MetricTransformations as { MetricName: string }[])[0]?.MetricName,
            filter.Properties,
          ]),
      );
      const authorizerErrors = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'];

      test("the authorizer's failures, by the access log's errorType", () => {
        expect(filters.get('AuthorizerFailures')).toEqual({
          LogGroupName: ref(accessLogsId),
          FilterPattern: `{ ${authorizerErrors.map((type) => `($.errorType = "${type}")`).join(' || ')} }`,
          MetricTransformations: [
            {
              MetricNamespace: `PetStore/petstore-${name}`,
              MetricName: 'AuthorizerFailures',
              MetricValue: '1',
            },
          ],
        });
        expect(alarm('authorizerFailures')).toMatchObject({
          Namespace: `PetStore/petstore-${name}`,
          MetricName: 'AuthorizerFailures',
          Statistic: 'Sum',
          Threshold: settings.alarms.functionErrorsPer5Minutes,
        });
      });

      test("each route's 5xx, but for the authorizer's, by method and resource", () => {
        expect(filters.get('RouteServerErrors')).toEqual({
          LogGroupName: ref(accessLogsId),
          FilterPattern: `{ ($.status = "5*") && ${authorizerErrors.map((type) => `($.errorType != "${type}")`).join(' && ')} }`,
          MetricTransformations: [
            {
              MetricNamespace: `PetStore/petstore-${name}`,
              MetricName: 'RouteServerErrors',
              MetricValue: '1',
              Dimensions: [
                { Key: 'Method', Value: '$.method' },
                { Key: 'Resource', Value: '$.resourcePath' },
              ],
            },
          ],
        });
      });

      test('the fields they read are in the access log', () => {
        const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
        const format = JSON.parse(
          (apiStage.Properties.AccessLogSetting as { Format: string }).Format,
        ) as Record<string, string>;
        expect(format).toMatchObject({
          status: '$context.status',
          errorType: '$context.error.responseType',
          method: '$context.httpMethod',
          resourcePath: '$context.resourcePath',
        });
      });
    });

    test('DynamoDB throttle events of the table and each index, reads and writes, missing data as zero', () => {
      const metrics = alarm('DynamoDbThrottles').Metrics as Properties[];
      expect(metrics[0]).toMatchObject({
        Expression:
          'FILL(tableReads, 0) + FILL(tableWrites, 0) + FILL(index_byStatus_reads, 0) + FILL(index_byStatus_writes, 0)',
      });
      const index = (metricName: string) =>
        metrics.find(
          (metric) =>
            (
              metric.MetricStat as
                { Metric: { MetricName: string; Dimensions: { Name: string }[] } } | undefined
            )?.Metric.MetricName === metricName &&
            JSON.stringify(metric).includes('GlobalSecondaryIndexName'),
        );
      expect(index('WriteThrottleEvents')).toBeDefined();
      expect(index('ReadThrottleEvents')).toBeDefined();
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
});
