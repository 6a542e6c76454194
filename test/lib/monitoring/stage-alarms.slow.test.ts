// The stage's alarms, its one page and the topic it notifies (lib/monitoring/stage-alarms.ts): what
// each alarm judges, which page, and one simulated incident, read from the template and run through
// CloudWatch's rules (./alarm-simulator.ts): a route failing in earnest pages on-call once.
import { describe, expect, test } from '@jest/globals';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { AlarmSimulator, alarmRuleText, runningSums } from '#test/lib/monitoring/alarm-simulator.ts';
import type { MetricStat, Traffic } from '#test/lib/monitoring/alarm-simulator.ts';
import { ROUTE_FUNCTION_IDS, arnOf, ref } from '#test/lib/templates.ts';

const HOUR = 60;

/**
 * Two hours of steady traffic on every route, then an hour in which half of `GET /pets` answers 5xx
 * (its function crashes), then two hours of recovery; the probe runs every 5 minutes and fails while
 * the route does. Every metric a stage alarm reads, as CloudWatch would have it.
 */
function listPetsIncident(stage: SynthesizedStage): Traffic & { start: number; end: number } {
  const [start, end, minutes] = [2 * HOUR, 3 * HOUR, 5 * HOUR];
  const failing = (minute: number) => minute >= start && minute < end;
  const perMinute = (value: (minute: number) => number | undefined) =>
    Array.from({ length: minutes }, (_, minute) => value(minute));
  const REQUESTS = 100;
  const serverErrors = perMinute((minute) => (failing(minute) ? REQUESTS / 2 : 0));
  const apiName = `petstore-${stage.name}`;
  const [canaryId] = stage.only('AWS::Synthetics::Canary');
  const probeRuns = perMinute((minute) => (minute % 5 === 0 ? (failing(minute) ? 0 : 100) : undefined));

  /** The metric's dimensions as one string, a Ref's by its logical id. */
  const dimensionsOf = ({ Metric }: MetricStat) =>
    (Metric.Dimensions ?? [])
      .map(({ Name, Value }) => `${Name}=${typeof Value === 'string' ? Value : JSON.stringify(Value)}`)
      .join(',');
  const listPets = /(^|,)Method=GET,Resource=\/pets(,|$)/;
  const sum = (series: (number | undefined)[]) => {
    const total = runningSums(series.map((value) => value ?? 0));
    return (from: number, to: number) =>
      series.slice(from, to).every((value) => value === undefined) ? undefined : total(from, to);
  };
  const noPoint = () => undefined;
  return {
    minutes,
    start,
    end,
    read: (stat) => {
      const { Namespace, MetricName } = stat.Metric;
      const dimensions = dimensionsOf(stat);
      const kind = `${Namespace} ${MetricName} ${stat.Stat}`;
      const ofListPets = listPets.test(dimensions);
      const listPetsFunction =
        dimensions === `FunctionName=${JSON.stringify(ref(ROUTE_FUNCTION_IDS.listPets))}`;
      switch (kind) {
        case 'AWS/ApiGateway Count SampleCount':
          return sum(perMinute(() => REQUESTS));
        case 'AWS/ApiGateway 5XXError Sum':
          return ofListPets ? sum(serverErrors) : () => 0;
        case `PetStore/${apiName} RouteServerErrors Sum`:
          // A metric filter publishes nothing while no line matches.
          return ofListPets ? sum(serverErrors.map((errors) => errors || undefined)) : noPoint;
        case 'AWS/ApiGateway IntegrationLatency p99':
          return () => 80;
        case 'AWS/Lambda Errors Sum':
          return listPetsFunction ? sum(serverErrors) : () => 0;
        case 'AWS/Lambda Throttles Sum':
          return () => 0;
        case `PetStore/${apiName} AuthorizerFailures Sum`:
        case 'AWS/DynamoDB ReadThrottleEvents Sum':
        case 'AWS/DynamoDB WriteThrottleEvents Sum':
          return noPoint;
        case 'CloudWatchSynthetics SuccessPercent Maximum':
          if (dimensions !== `CanaryName=${JSON.stringify(ref(canaryId))}`) throw new Error(dimensions);
          return (from, to) => {
            const runs = probeRuns.slice(from, to).filter((run) => run !== undefined);
            return runs.length === 0 ? undefined : Math.max(...runs);
          };
      }
      // The SLOs' latency: every answer within the threshold.
      if (/^AWS\/ApiGateway Latency PR\(:\d+\)$/.test(kind)) return () => 100;
      throw new Error(`The incident has no data for ${kind} {${dimensions}}`);
    },
  };
}

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { name, settings, template } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');
  const [topicId, topic] = stage.only('AWS::SNS::Topic');
  // By construct id: CloudFormation names the alarms (<stack>-Alarms<id><hash>-<suffix>).
  const idOf = (logicalId: string) => logicalId.replace(/^(Alarms|Slos)(\w+)[0-9A-F]{8}$/, '$2');
  const alarms = new Map(
    stage
      .all('AWS::CloudWatch::Alarm')
      .filter(([logicalId]) => logicalId.startsWith('Alarms'))
      .map(([logicalId, alarm]) => [idOf(logicalId), alarm.Properties]),
  );
  const alarm = (id: string) => defined(alarms.get(id), id);
  const [pageId, page] = defined(
    stage.all('AWS::CloudWatch::CompositeAlarm').find(([id]) => id.startsWith('AlarmsPage')),
    'the page',
  );
  /** The alarms the page fires on, by construct id. */
  const paging = (alarmRuleText(page.Properties.AlarmRule).match(/ALARM\("(\w+)"\)/g) ?? []).map((call) =>
    idOf(call.slice(7, -2)),
  );
  const routeIds = Object.keys(ROUTE_FUNCTION_IDS);

  test('sixteen metric alarms, and one page: the only alarm that notifies, on alarm and on recovery', () => {
    const routeAlarms = routeIds.flatMap((operationId) =>
      ['Errors', 'Throttles', '5xx', 'P99Latency'].map((kind) => `${operationId}${kind}`),
    );
    expect([...alarms.keys()].sort()).toEqual(
      [
        ...routeAlarms,
        'authorizerThrottles',
        'authorizerFailures',
        'DynamoDbThrottles',
        'ProbeFailed',
      ].sort(),
    );
    for (const properties of alarms.values()) {
      for (const property of ['AlarmActions', 'OKActions', 'InsufficientDataActions', 'AlarmName'])
        expect(properties[property]).toBeUndefined();
      expect(properties.AlarmDescription).toMatch(new RegExp(`^Pet store ${name}: `));
    }
    const notifying = [
      ...stage.all('AWS::CloudWatch::Alarm'),
      ...stage.all('AWS::CloudWatch::CompositeAlarm'),
    ]
      .filter(
        ([, found]) =>
          found.Properties.AlarmActions !== undefined || found.Properties.OKActions !== undefined,
      )
      .map(([id]) => id);
    expect(notifying).toEqual([pageId]);
    expect(page.Properties).toMatchObject({ AlarmActions: [ref(topicId)], OKActions: [ref(topicId)] });
    expect(page.Properties.AlarmName).toBeUndefined();
    expect(page.Properties.AlarmDescription).toMatch(new RegExp(`^Pet store ${name}: page on-call`));
  });

  test("pages on symptoms, every SLO's burn rates and the probe, and on causes no SLO judges", () => {
    const burnRates = stage
      .all('AWS::CloudWatch::CompositeAlarm')
      .filter(([id]) => id.startsWith('Slos'))
      .map(([id]) => idOf(id));
    expect(burnRates).toHaveLength(12);
    expect(alarmRuleText(page.Properties.AlarmRule)).toMatch(/^\(ALARM\("\w+"\)( OR ALARM\("\w+"\))*\)$/);
    expect([...paging].sort()).toEqual(
      [
        ...burnRates,
        'ProbeFailed',
        ...[...routeIds, 'authorizer'].map((fn) => `${fn}Throttles`),
        'authorizerFailures',
        'DynamoDbThrottles',
      ].sort(),
    );
    // What only a rollout acts on: a route's own 5xx, errors and latency page through its SLO.
    for (const operationId of routeIds)
      for (const kind of ['Errors', '5xx', 'P99Latency'])
        expect(paging).not.toContain(`${operationId}${kind}`);
  });

  test('one incident, one page: half of GET /pets failing for an hour', () => {
    const traffic = listPetsIncident(stage);
    const simulator = new AlarmSimulator(stage);
    const statesOf = (logicalId: string) => simulator.inAlarm(logicalId, traffic);
    /** The minutes an alarm goes into ALARM: each is a notification, when the alarm notifies. */
    const risings = (states: boolean[]) =>
      states.flatMap((state, minute) => (state && !(states[minute - 1] ?? false) ? [minute] : []));
    const logicalIdOf = (id: string) =>
      defined(
        [...stage.all('AWS::CloudWatch::Alarm'), ...stage.all('AWS::CloudWatch::CompositeAlarm')].find(
          ([logicalId]) => idOf(logicalId) === id,
        ),
        id,
      )[0];
    // Many alarms see it: the rollout's, the route's burn rates and the probe.
    const fired = [...alarms.keys(), 'listPetsAvailabilityFast', 'listPetsAvailabilitySlow'].filter((id) =>
      statesOf(logicalIdOf(id)).includes(true),
    );
    expect(fired.sort()).toEqual(
      [
        'listPets5xx',
        'listPetsErrors',
        'ProbeFailed',
        'listPetsAvailabilityFast',
        'listPetsAvailabilitySlow',
      ].sort(),
    );
    // On-call hears of it once, soon after it starts, and once more when it is over.
    const pageStates = statesOf(pageId);
    const [paged, ...again] = risings(pageStates);
    expect(again).toEqual([]);
    expect(defined(paged, 'the page') - traffic.start).toBeGreaterThan(0);
    expect(defined(paged, 'the page') - traffic.start).toBeLessThanOrEqual(10);
    expect(pageStates.at(-1)).toBe(false);
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

  test.each(routeIds)(
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
      // The stage by its literal name: a Ref to the stage would close a circle through the rollout.
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
        // Per minute, 3 of 5: it can fire within a canary's 5 minutes.
        Period: 60,
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
      });
      // Per-method metrics exist only with detailed metrics on.
      const [, apiStage] = stage.only('AWS::ApiGateway::Stage');
      expect(apiStage.Properties.StageName).toBe('v1');
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
        'FILL(table_reads, 0) + FILL(index_byStatus_reads, 0) + FILL(table_writes, 0) + FILL(index_byStatus_writes, 0)',
    });
    const index = (metricName: string) =>
      metrics.find(
        (metric) =>
          (metric.MetricStat as { Metric: { MetricName: string } } | undefined)?.Metric.MetricName ===
            metricName && JSON.stringify(metric).includes('GlobalSecondaryIndexName'),
      );
    expect(index('WriteThrottleEvents')).toBeDefined();
    expect(index('ReadThrottleEvents')).toBeDefined();
    expect(JSON.stringify(metrics)).toContain(JSON.stringify({ Name: 'TableName', Value: ref(tableId) }));
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
