// CloudWatch's alarms as its documentation describes them, run over synthetic traffic: each alarm's
// metric or metric math from the synthesized template, over its period's sliding window each minute,
// with its datapoints to alarm and missing data; and each composite's rule. It throws on what the
// stack does not write, so that a changed alarm fails its checks instead of being misread.
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';

/** One minute of the method's requests as API Gateway counts them. */
export type Minute = {
  requests: number;
  /** Of `requests`, those answered 5xx. */
  serverErrors: number;
  /** The share of `requests` answered within the latency objective's threshold. */
  withinShare: number;
};

/** A metric as an alarm names it: namespace, name and dimensions, a Ref's value as `{ Ref: id }`. */
export type MetricStat = {
  Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] };
  Period: number;
  Stat: string;
};

/** A MetricDataQuery of an alarm's `Metrics`, or of a math expression rendered for a dashboard. */
export type MetricQuery = { Id: string; Expression?: string; ReturnData?: boolean; MetricStat?: MetricStat };

/**
 * Synthetic traffic: how many minutes it lasts, and each metric's statistic over minutes [from, to),
 * undefined where the metric has no point. A reader throws on a metric it does not know.
 */
export type Traffic = {
  minutes: number;
  read: (stat: MetricStat) => (from: number, to: number) => number | undefined;
};

/**
 * A value of metric math at one timestamp: a scalar, or a time series' point, undefined when the
 * series has none there.
 */
type Value = { scalar: number } | { point: number | undefined };
type Node =
  | { number: number }
  | { id: string }
  | { operator: '+' | '-' | '*' | '/'; left: Node; right: Node }
  | { fill: Node; value: Node };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([a-z][A-Za-z0-9_]*)|(FILL)|([-+*/(),]))/y;

/** Parses the expression: numbers, metric ids, + - * /, parentheses and FILL(series, number). */
function parseExpression(expression: string): Node {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.trimEnd().length) {
    const position = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match) throw new Error(`The simulation cannot read "${expression}" from ${position}`);
    tokens.push(match.slice(1).find((part) => part !== undefined) ?? '');
  }
  let at = 0;
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (token === undefined || (expected !== undefined && token !== expected))
      throw new Error(`"${expression}": expected ${expected ?? 'more'} at token ${at}, found ${token}`);
    return token;
  };
  const binary = (operators: string, operand: () => Node) => (): Node => {
    let left = operand();
    while (operators.includes(tokens[at] ?? '.')) {
      const operator = take() as '+' | '-' | '*' | '/';
      left = { operator, left, right: operand() };
    }
    return left;
  };
  const primary = (): Node => {
    const token = take();
    if (token === '(') {
      const inner = sum();
      take(')');
      return inner;
    }
    if (token === 'FILL') {
      take('(');
      const fill = sum();
      take(',');
      const value = sum();
      take(')');
      return { fill, value };
    }
    if (/^\d/.test(token)) return { number: Number(token) };
    if (/^[a-z]/.test(token)) return { id: token };
    throw new Error(`"${expression}": unexpected ${token}`);
  };
  const product = binary('*/', primary);
  const sum = binary('+-', product);
  const tree = sum();
  if (at !== tokens.length) throw new Error(`"${expression}": unexpected ${tokens[at]}`);
  return tree;
}

/**
 * One timestamp of the expression. As metric math documents it: an operation between a point and a
 * missing one treats the missing as 0; between a scalar and a missing point, or two missing points,
 * there is no point; a division by zero drops the point; FILL gives a missing point its value.
 */
function evaluate(node: Node, points: (id: string) => number | undefined): Value {
  if ('number' in node) return { scalar: node.number };
  if ('id' in node) return { point: points(node.id) };
  if ('fill' in node) {
    const series = evaluate(node.fill, points);
    const value = evaluate(node.value, points);
    if (!('point' in series) || !('scalar' in value)) throw new Error('FILL(series, number) only');
    return { point: series.point ?? value.scalar };
  }
  const left = evaluate(node.left, points);
  const right = evaluate(node.right, points);
  const apply = (a: number, b: number) => {
    if (node.operator === '/') return b === 0 ? undefined : a / b;
    return node.operator === '+' ? a + b : node.operator === '-' ? a - b : a * b;
  };
  if ('scalar' in left && 'scalar' in right)
    return { scalar: defined(apply(left.scalar, right.scalar), '/0') };
  const [a, b] = [left, right].map((value) => ('scalar' in value ? value.scalar : value.point));
  if (a === undefined && b === undefined) return { point: undefined };
  const eitherScalar = 'scalar' in left || 'scalar' in right;
  if (eitherScalar && (a === undefined || b === undefined)) return { point: undefined };
  return { point: apply(a ?? 0, b ?? 0) };
}

/** Running sums of a series, for the sum of any window in one step. */
export function runningSums(series: number[]) {
  const sums = [0];
  for (const value of series) sums.push((sums.at(-1) ?? 0) + value);
  return (from: number, to: number) => (sums[to] ?? NaN) - (sums[from] ?? NaN);
}

/**
 * One API method's traffic, whatever the dimensions asked: API Gateway's statistics over its minutes,
 * none without requests, as API Gateway publishes no point for a minute without one. `thresholdMs` is
 * what `withinShare` is of.
 */
export function methodTraffic(series: Minute[], thresholdMs: number): Traffic {
  const requests = runningSums(series.map((minute) => minute.requests));
  const serverErrors = runningSums(series.map((minute) => minute.serverErrors));
  const within = runningSums(series.map((minute) => minute.requests * minute.withinShare));
  const readers: Record<string, (from: number, to: number) => number> = {
    'AWS/ApiGateway 5XXError Sum': serverErrors,
    'AWS/ApiGateway Count SampleCount': requests,
    // The percentage of requests within the threshold, which is what the series give a share of.
    [`AWS/ApiGateway Latency PR(:${thresholdMs})`]: (from, to) =>
      (100 * within(from, to)) / requests(from, to),
  };
  return {
    minutes: series.length,
    read: ({ Metric, Stat }) => {
      const kind = `${Metric.Namespace} ${Metric.MetricName} ${Stat}`;
      const read = readers[kind];
      if (!read)
        throw new Error(`The simulation does not know ${kind} (latency threshold ${thresholdMs} ms)`);
      return (from, to) => (requests(from, to) === 0 ? undefined : read(from, to));
    },
  };
}

/**
 * The queries' returned expression over the window of their period that ends with a minute of the
 * traffic (shorter at its start), as an alarm evaluates it each minute, on the data of its last
 * period. All metrics of one alarm have the same period.
 */
export function windowValue(queries: MetricQuery[], traffic: Traffic) {
  const periods = new Set(queries.flatMap(({ MetricStat }) => (MetricStat ? [MetricStat.Period] : [])));
  const [period, ...others] = [...periods];
  if (period === undefined || others.length > 0 || period % 60 !== 0)
    throw new Error(`One period of whole minutes expected, found ${[...periods].join(', ')}`);
  const metrics = new Map(
    queries.flatMap(({ Id, MetricStat }) => (MetricStat ? [[Id, traffic.read(MetricStat)]] : [])),
  );
  const expressions = new Map(
    queries.flatMap(({ Id, Expression }) => (Expression ? [[Id, parseExpression(Expression)]] : [])),
  );
  const returned = queries.filter(({ ReturnData }) => ReturnData !== false);
  if (returned.length !== 1 || !returned[0]) throw new Error('One returned query expected');
  const returnedId = returned[0].Id;
  return (minute: number) => {
    const [from, to] = [Math.max(0, minute + 1 - period / 60), minute + 1];
    const point = (id: string): number | undefined => {
      const metric = metrics.get(id);
      if (metric) return metric(from, to);
      const value = evaluate(defined(expressions.get(id), `query ${id}`), point);
      if ('scalar' in value) throw new Error(`${id} is a number, not a time series`);
      return value.point;
    };
    return point(returnedId);
  };
}

/** An alarm's queries: its `Metrics`, or its one metric as a query. */
function queriesOf(properties: Properties): MetricQuery[] {
  if (properties.Metrics) return properties.Metrics as MetricQuery[];
  const { Namespace, MetricName, Dimensions, Period, Statistic, ExtendedStatistic } = properties;
  return [
    {
      Id: 'metric',
      MetricStat: {
        Metric: {
          Namespace: String(Namespace),
          MetricName: String(MetricName),
          Dimensions: Dimensions as { Name: string; Value: unknown }[] | undefined,
        },
        Period: Number(Period),
        Stat: String(Statistic ?? ExtendedStatistic),
      },
    },
  ];
}

/** Whether a value breaches the threshold, by each comparison the stack writes. */
const COMPARISONS: Record<string, (value: number, threshold: number) => boolean> = {
  GreaterThanThreshold: (value, threshold) => value > threshold,
  GreaterThanOrEqualToThreshold: (value, threshold) => value >= threshold,
  LessThanThreshold: (value, threshold) => value < threshold,
};

/** A composite alarm's rule as CloudWatch reads it, each alarm's ARN (a Fn::GetAtt) by its logical id. */
export function alarmRuleText(rule: unknown): string {
  const join = (rule as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join || join[0] !== '') throw new Error(`Not a Fn::Join: ${JSON.stringify(rule)}`);
  return join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const [id, attribute] = (part as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'] ?? [];
      if (!id || attribute !== 'Arn') throw new Error(`Not an alarm's ARN: ${JSON.stringify(part)}`);
      return id;
    })
    .join('');
}

/** The alarms of a stage's template, each in ALARM or not at each minute of the traffic. */
export class AlarmSimulator {
  private readonly stage: SynthesizedStage;

  constructor(stage: SynthesizedStage) {
    this.stage = stage;
  }

  inAlarm(logicalId: string, traffic: Traffic): boolean[] {
    const { Type, Properties } = this.stage.resource(logicalId);
    if (Type === 'AWS::CloudWatch::CompositeAlarm') return this.compositeInAlarm(Properties, traffic);
    if (Type !== 'AWS::CloudWatch::Alarm') throw new Error(`${logicalId} is a ${Type}`);
    const { Threshold, ComparisonOperator, EvaluationPeriods, DatapointsToAlarm, TreatMissingData } =
      Properties;
    const breaches = COMPARISONS[String(ComparisonOperator)];
    if (!breaches || !['breaching', 'notBreaching'].includes(String(TreatMissingData)))
      throw new Error(
        `${logicalId}: the simulation does not know ${String(ComparisonOperator)}, ${String(TreatMissingData)}`,
      );
    const queries = queriesOf(Properties);
    const value = windowValue(queries, traffic);
    const periodMinutes = Number(queries.find((query) => query.MetricStat)?.MetricStat?.Period) / 60;
    const evaluated = Number(EvaluationPeriods);
    const needed = Number(DatapointsToAlarm ?? EvaluationPeriods);
    /** Each minute's last period: breaching, or missing as TreatMissingData says. */
    const breaching = Array.from({ length: traffic.minutes }, (_, minute) => {
      const point = value(minute);
      return point === undefined ? TreatMissingData === 'breaching' : breaches(point, Number(Threshold));
    });
    // M of the last N periods, each a period apart, ending at the minute.
    return breaching.map((_, minute) => {
      const points = Array.from({ length: evaluated }, (__, back) => minute - back * periodMinutes);
      return points.filter((at) => at >= 0 && breaching[at]).length >= needed;
    });
  }

  /** ALARM("id") joined by AND or OR, in parentheses: the rules the stack writes. */
  private compositeInAlarm(properties: Properties, traffic: Traffic): boolean[] {
    const text = alarmRuleText(properties.AlarmRule);
    const tokens = text.match(/\(|\)|AND|OR|ALARM\("[A-Za-z0-9]+"\)|\S+/g) ?? [];
    let at = 0;
    const joined = (): boolean[] => {
      let states = operand();
      const operator = tokens[at];
      while (tokens[at] === 'AND' || tokens[at] === 'OR') {
        if (tokens[at] !== operator) throw new Error(`"${text}": AND and OR mixed without parentheses`);
        at++;
        const right = operand();
        states = states.map((state, minute) =>
          operator === 'AND' ? state && (right[minute] ?? false) : state || (right[minute] ?? false),
        );
      }
      return states;
    };
    const operand = (): boolean[] => {
      const token = tokens[at++] ?? '';
      if (token === '(') {
        const states = joined();
        if (tokens[at++] !== ')') throw new Error(`"${text}": ) expected`);
        return states;
      }
      const alarm = /^ALARM\("(\w+)"\)$/.exec(token);
      if (!alarm?.[1]) throw new Error(`"${text}": the simulation does not know ${token}`);
      return this.inAlarm(alarm[1], traffic);
    };
    const states = joined();
    if (at !== tokens.length) throw new Error(`"${text}": unexpected ${tokens[at]}`);
    return states;
  }
}
