// Each function's init duration (its cold starts' cost), which Lambda publishes as no metric: only in
// the `platform.report` line of the function's JSON log, which a metric filter turns into one.
import { Duration } from 'aws-cdk-lib';
import { Unit } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

const INIT_DURATION = '$.record.metrics.initDurationMs';

/**
 * `<name>InitDuration` in the stage's namespace: a filter's metric can take its dimensions only from
 * the log line, which does not name the function, so the name is in the metric's.
 */
export function addInitDurationMetric(
  scope: Construct,
  { name, logGroup, namespace }: { name: string; logGroup: ILogGroup; namespace: string },
) {
  const filter = new MetricFilter(scope, `${name}InitDurationFilter`, {
    logGroup,
    filterPattern: FilterPattern.all(
      FilterPattern.stringValue('$.type', '=', 'platform.report'),
      FilterPattern.exists(INIT_DURATION),
    ),
    metricNamespace: namespace,
    metricName: `${name}InitDuration`,
    metricValue: INIT_DURATION,
    unit: Unit.MILLISECONDS,
  });
  return (statistic: string) => filter.metric({ statistic, period: Duration.minutes(5) });
}
