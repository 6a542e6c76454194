// CloudWatch's alarms as its documentation describes them, run over synthetic traffic of one API
// method: each alarm's metric math, read from the synthesized template, over the sliding window of its
// period at each minute, and each composite alarm's rule. It reads only the subset the stack writes and
// throws on anything else, so that a changed alarm fails its checks instead of being misread.
import { defined } from '#test/lib/synthesize.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';

/** One minute of the method's requests as API Gateway counts them. */
export type Minute = {
  requests: number;
  /** Of `requests`, those answered 5xx. */
  serverErrors: number;
  /** The share of `requests` answered within the latency objective's threshold. */
  withinShare: number;
};

/** A MetricDataQuery of an alarm's `Metrics`, or of a math expression rendered for a dashboard. */
export type MetricQuery = {
  Id: string;
  Expression?: string;
  ReturnData?: boolean;
  MetricStat?: { Metric: { Namespace: string; MetricName: string }; Period: number; Stat: string };
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

/** Running sums of the series, for the sum of any window in one step. */
function runningSums(series: Minute[]) {
  const sums = { requests: [0], serverErrors: [0], within: [0] };
  for (const { requests, serverErrors, withinShare } of series) {
    sums.requests.push((sums.requests.at(-1) ?? 0) + requests);
    sums.serverErrors.push((sums.serverErrors.at(-1) ?? 0) + serverErrors);
    sums.within.push((sums.within.at(-1) ?? 0) + requests * withinShare);
  }
  return sums;
}
type Sums = ReturnType<typeof runningSums>;

/**
 * The statistic of API Gateway's metric over minutes [from, to): none without requests, as API
 * Gateway publishes no point for a minute without one. `thresholdMs` is what `withinShare` is of.
 */
function statistic(stat: NonNullable<MetricQuery['MetricStat']>, sums: Sums, thresholdMs: number) {
  const { Namespace, MetricName } = stat.Metric;
  const kind = `${Namespace} ${MetricName} ${stat.Stat}`;
  const readers: Record<string, (total: (series: number[]) => number) => number> = {
    'AWS/ApiGateway 5XXError Sum': (total) => total(sums.serverErrors),
    'AWS/ApiGateway Count SampleCount': (total) => total(sums.requests),
    // The percentage of requests within the threshold, which is what the series give a share of.
    [`AWS/ApiGateway Latency PR(:${thresholdMs})`]: (total) =>
      (100 * total(sums.within)) / total(sums.requests),
  };
  const read = readers[kind];
  if (!read) throw new Error(`The simulation does not know ${kind} (latency threshold ${thresholdMs} ms)`);
  return (from: number, to: number) => {
    const total = (series: number[]) => (series[to] ?? NaN) - (series[from] ?? NaN);
    return total(sums.requests) === 0 ? undefined : read(total);
  };
}

/**
 * The queries' returned expression over the window of their period that ends with a minute of the
 * series (shorter at the series' start), as an alarm evaluates it each minute, on the data of its last
 * period. All metrics of one alarm have the same period.
 */
export function windowValue(queries: MetricQuery[], series: Minute[], thresholdMs: number) {
  const sums = runningSums(series);
  const periods = new Set(queries.flatMap(({ MetricStat }) => (MetricStat ? [MetricStat.Period] : [])));
  const [period, ...others] = [...periods];
  if (period === undefined || others.length > 0 || period % 60 !== 0)
    throw new Error(`One period of whole minutes expected, found ${[...periods].join(', ')}`);
  const metrics = new Map(
    queries.flatMap(({ Id, MetricStat }) =>
      MetricStat ? [[Id, statistic(MetricStat, sums, thresholdMs)]] : [],
    ),
  );
  const expressions = new Map(
    queries.flatMap(({ Id, Expression }) => (Expression ? [[Id, parseExpression(Expression)]] : [])),
  );
  const returned = queries.filter(({ ReturnData }) => ReturnData !== false);
  if (returned.length !== 1 || !returned[0]?.Expression) throw new Error('One returned expression expected');
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

/** The alarms of a stage's template, each in ALARM or not at each minute of the series. */
export class AlarmSimulator {
  private readonly stage: SynthesizedStage;
  /** The latency threshold that the series' `withinShare` is of. */
  private readonly thresholdMs: number;

  constructor(stage: SynthesizedStage, thresholdMs: number) {
    this.stage = stage;
    this.thresholdMs = thresholdMs;
  }

  inAlarm(logicalId: string, series: Minute[]): boolean[] {
    const { Type, Properties } = this.stage.resource(logicalId);
    if (Type === 'AWS::CloudWatch::CompositeAlarm') return this.compositeInAlarm(Properties, series);
    if (Type !== 'AWS::CloudWatch::Alarm') throw new Error(`${logicalId} is a ${Type}`);
    const { Metrics, Threshold, ComparisonOperator, EvaluationPeriods, DatapointsToAlarm } = Properties;
    const single = EvaluationPeriods === 1 && (DatapointsToAlarm ?? 1) === 1;
    if (
      !single ||
      ComparisonOperator !== 'GreaterThanThreshold' ||
      Properties.TreatMissingData !== 'notBreaching'
    )
      throw new Error(
        `${logicalId}: the simulation knows one data point over its threshold, missing as good`,
      );
    const value = windowValue(Metrics as MetricQuery[], series, this.thresholdMs);
    // A missing point is not breaching.
    return series.map((_, minute) => (value(minute) ?? -Infinity) > Number(Threshold));
  }

  /** ALARM("id") joined by AND, in parentheses: the rules the stack writes. */
  private compositeInAlarm(properties: Properties, series: Minute[]): boolean[] {
    const text = alarmRuleText(properties.AlarmRule);
    const tokens = text.match(/\(|\)|AND|ALARM\("[A-Za-z0-9]+"\)|\S+/g) ?? [];
    let at = 0;
    const conjunction = (): boolean[] => {
      let states = operand();
      while (tokens[at] === 'AND') {
        at++;
        const right = operand();
        states = states.map((state, minute) => state && (right[minute] ?? false));
      }
      return states;
    };
    const operand = (): boolean[] => {
      const token = tokens[at++] ?? '';
      if (token === '(') {
        const states = conjunction();
        if (tokens[at++] !== ')') throw new Error(`"${text}": ) expected`);
        return states;
      }
      const alarm = /^ALARM\("(\w+)"\)$/.exec(token);
      if (!alarm?.[1]) throw new Error(`"${text}": the simulation does not know ${token}`);
      return this.inAlarm(alarm[1], series);
    };
    const states = conjunction();
    if (at !== tokens.length) throw new Error(`"${text}": unexpected ${tokens[at]}`);
    return states;
  }
}
