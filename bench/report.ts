// The targets, judged on this run's figures, and the tables `npm run bench` prints (Markdown, so
// that they paste into docs/performance.md as they are).
import type { BundleSize } from '#bench/processes/bundles.ts';
import type { ColdStart } from '#bench/processes/cold-start.ts';
import type { CostModel } from '#bench/cost.ts';
import { ASSUMPTIONS } from '#bench/cost.ts';
import { WALK_OPERATION, usageOf } from '#bench/dynamodb/usage.ts';
import type { OperationUsage } from '#bench/dynamodb/usage.ts';
import { LIST_QUERY } from '#bench/processes/events.ts';
import type { LoadResult } from '#bench/load.ts';
import type { Spread } from '#bench/stats.ts';
import { SUBJECTS, VARIANTS } from '#bench/subjects.ts';
import type { ByVariant, PerSubject, SubjectName, Variant } from '#bench/subjects.ts';
import type { Warm } from '#bench/processes/warm.ts';
import type { Wire } from '#bench/wire.ts';

export type Measurements = {
  bundles: PerSubject<BundleSize>;
  coldStarts: PerSubject<ColdStart>;
  warm: PerSubject<Warm>;
  dynamoDb: OperationUsage[];
  wire: Wire;
  load: LoadResult[];
  cost: CostModel;
};

export type Target = { target: string; measured: string; pass: boolean };

const times = (value: number) => `${value.toFixed(2)}x`;
const ms = (value: number) => value.toFixed(2);
const dollars = (value: number) => `$${value.toFixed(3)}`;
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const perCall = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));

type Figure = {
  label: string;
  format: (value: number) => string;
  of: (results: Measurements, subject: SubjectName) => ByVariant<number>;
  /** How far the figure moved between runs, where it is an order statistic of several. */
  spreadOf?: ((results: Measurements, subject: SubjectName, variant: Variant) => Spread) | undefined;
  /** The limit on function / baseline, where there is one. */
  maxRatio?: number | undefined;
};

/** A figure read from one kind of measurement, for a function, its baseline and the references. */
function figure<T>(
  label: string,
  format: (value: number) => string,
  measurement: (results: Measurements) => PerSubject<T>,
  value: (side: T) => number,
  { maxRatio, spread }: { maxRatio?: number; spread?: (side: T) => Spread } = {},
): Figure {
  const of = (results: Measurements, subject: SubjectName) => {
    const sides = measurement(results)[subject];
    return Object.fromEntries(
      VARIANTS.map((variant) => [variant, value(sides[variant])]),
    ) as ByVariant<number>;
  };
  const spreadOf =
    spread &&
    ((results: Measurements, subject: SubjectName, variant: Variant) =>
      spread(measurement(results)[subject][variant]));
  return { label, format, of, spreadOf, maxRatio };
}

const bundles = (results: Measurements) => results.bundles;
const coldStarts = (results: Measurements) => results.coldStarts;
const warm = (results: Measurements) => results.warm;

const MAX_RATIOS = { bundle: 1.3, coldStart: 1.1, warmP50: 1.05, warmP99: 1.15 };

const FIGURES: Figure[] = [
  figure('bundle (bytes)', grouped, bundles, (bundle) => bundle.bytes, { maxRatio: MAX_RATIOS.bundle }),
  figure('cold start, median (ms)', ms, coldStarts, (cold) => cold.medianMs, {
    maxRatio: MAX_RATIOS.coldStart,
    spread: (cold) => cold.spreadMs,
  }),
  figure('cold start CPU, median (ms)', ms, coldStarts, (cold) => cold.medianCpuMs),
  figure('RSS after the first answer (MB)', grouped, coldStarts, (cold) => cold.medianRssMb),
  figure('warm p50 (ms)', ms, warm, (invocations) => invocations.p50Ms, {
    maxRatio: MAX_RATIOS.warmP50,
    spread: (invocations) => invocations.p50SpreadMs,
  }),
  figure('warm p99 (ms)', ms, warm, (invocations) => invocations.p99Ms, {
    maxRatio: MAX_RATIOS.warmP99,
    spread: (invocations) => invocations.p99SpreadMs,
  }),
  figure('warm CPU per invocation (ms)', ms, warm, (invocations) => invocations.cpuMsPerInvocation),
];

const ratio = ({ function: value, baseline }: ByVariant<number>) => value / baseline;

const CREATE_WRITES_MAX = 1.05;
/** A page's Query, and a second where it crosses into the next shard: rarely, over a whole walk. */
const WALK_MAX_REQUESTS = 2;
const WALK_AVERAGE_MAX = 1.1;

export function judgeTargets(results: Measurements): Target[] {
  const ratioTargets = SUBJECTS.flatMap(({ name }) =>
    FIGURES.filter((figure) => figure.maxRatio !== undefined).map(({ label, of, maxRatio = 0 }) => {
      const measured = ratio(of(results, name));
      return {
        target: `${name} ${label}: <= ${maxRatio}x baseline`,
        measured: times(measured),
        pass: measured <= maxRatio,
      };
    }),
  );
  const requests = (operation: string) => {
    const usage = usageOf(results.dynamoDb, operation);
    return usage.readRequests + usage.writeRequests;
  };
  const fasterThanDefault = SUBJECTS.map(({ name }) => {
    const { function: cold, cdkDefault } = results.coldStarts[name];
    return {
      target: `${name} cold start, median: faster than the baseline as NodejsFunction bundles it by default`,
      measured: `${ms(cold.medianMs)} < ${ms(cdkDefault.medianMs)} ms`,
      pass: cold.medianMs < cdkDefault.medianMs,
    };
  });
  const getRequests = requests('getPet');
  const listRequests = requests(`listPets ?${LIST_QUERY}`);
  const walk = usageOf(results.dynamoDb, WALK_OPERATION);
  const walkRequests = walk.readRequests + walk.writeRequests;
  const createWrites = usageOf(results.dynamoDb, 'createPet').writeRequests;
  return [
    ...ratioTargets,
    ...fasterThanDefault,
    { target: 'getPet: 1 DynamoDB request', measured: perCall(getRequests), pass: getRequests === 1 },
    {
      target: `listPets ?${LIST_QUERY}: 1 DynamoDB request`,
      measured: perCall(listRequests),
      pass: listRequests === 1,
    },
    {
      target: `${WALK_OPERATION}: <= ${WALK_MAX_REQUESTS} DynamoDB requests a page, <= ${WALK_AVERAGE_MAX} on average`,
      measured: `${walk.maxRequests} max, ${perCall(walkRequests)} average`,
      pass: walk.maxRequests <= WALK_MAX_REQUESTS && walkRequests <= WALK_AVERAGE_MAX,
    },
    {
      target: `createPet: <= ${CREATE_WRITES_MAX} writes on average`,
      measured: perCall(createWrites),
      pass: createWrites <= CREATE_WRITES_MAX,
    },
  ];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** The figure, and where it is one of several runs' its spread: `median (min-max)`. */
function cell(results: Measurements, subject: SubjectName, figure: Figure, variant: Variant): string {
  const value = figure.format(figure.of(results, subject)[variant]);
  const spread = figure.spreadOf?.(results, subject, variant);
  return spread ? `${value} (${figure.format(spread.min)}-${figure.format(spread.max)})` : value;
}

const functionTable = (results: Measurements) =>
  table(
    ['function', 'figure', 'function', 'baseline', 'ratio', 'NodejsFunction default', 'no SDK'],
    SUBJECTS.flatMap(({ name }) =>
      FIGURES.map((figure) => [
        name,
        figure.label,
        cell(results, name, figure, 'function'),
        cell(results, name, figure, 'baseline'),
        times(ratio(figure.of(results, name))),
        cell(results, name, figure, 'cdkDefault'),
        cell(results, name, figure, 'floor'),
      ]),
    ),
  );

/** What each function bundle is made of: its five largest packages, a list (too long for a cell). */
const bundleParts = ({ bundles }: Measurements) =>
  [
    "What the bundles are made of (the five largest packages of each function's bundle, in bytes):",
    '',
    ...SUBJECTS.map(({ name }) => {
      const parts = bundles[name].function.packages.slice(0, 5);
      return `- ${name}: ${parts.map((part) => `${part.name} ${grouped(part.bytes)}`).join(', ')}`;
    }),
  ].join('\n');

const dynamoDbTable = ({ dynamoDb }: Measurements) =>
  table(
    ['operation', 'calls', 'requests per call', 'reads', 'writes', 'RRU', 'WRU'],
    dynamoDb.map((usage) => [
      usage.operation,
      String(usage.calls),
      Object.entries(usage.requestsPerCall)
        .map(([name, count]) => `${name} ${perCall(count)}`)
        .join(', '),
      perCall(usage.readRequests),
      perCall(usage.writeRequests),
      perCall(usage.readUnits),
      perCall(usage.writeUnits),
    ]),
  );

const loadTable = ({ load }: Measurements) =>
  table(
    ['route', 'requests/s', 'p50 (ms)', 'p99 (ms)', 'failures'],
    load.map((route) => [
      route.route,
      grouped(route.requestsPerSecond),
      String(route.p50Ms),
      String(route.p99Ms),
      String(route.failures),
    ]),
  );

const costTable = ({ cost }: Measurements) =>
  table(
    ['operation', 'billed ms', 'API Gateway', 'Lambda', 'authorizer', 'DynamoDB', 'total'],
    cost.lines.map((line) => [
      line.operation,
      String(line.durationMs),
      dollars(line.apiGateway),
      dollars(line.lambda),
      dollars(line.authorizer),
      dollars(line.dynamoDb),
      dollars(line.total),
    ]),
  );

const memoryTable = ({ cost }: Measurements) =>
  table(
    ['operation: $ per million, billed ms', ...cost.byMemory.map(({ memoryMb }) => `${memoryMb} MB`)],
    [
      ...cost.lines.map(({ operation }, index) => [
        operation,
        ...cost.byMemory.map(({ lines }) => {
          const line = lines[index];
          return line ? `${dollars(line.total)}, ${line.durationMs} ms` : '';
        }),
      ]),
      [
        'Init of the slowest cold start',
        ...cost.byMemory.map(({ coldStartInitMs }) => `${grouped(coldStartInitMs)} ms`),
      ],
    ],
  );

const coldStartCost = ({ cost }: Measurements) =>
  Object.entries(cost.coldStartPerMillion)
    .map(([name, dollarsPerMillion]) => `${name} ${dollars(dollarsPerMillion)}`)
    .join(', ');

const percentOf = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;

const sizeTable = ({ wire }: Measurements) =>
  table(
    ['answer', 'bytes', 'gzipped', 'share'],
    wire.sizes.map(({ answer, plainBytes, gzipBytes }) => [
      answer,
      grouped(plainBytes),
      gzipBytes === plainBytes ? 'not compressed' : grouped(gzipBytes),
      percentOf(gzipBytes, plainBytes),
    ]),
  );

const revalidationTable = ({ wire: { revalidation: r } }: Measurements) =>
  table(
    ['answer', 'body bytes', "DynamoDB requests (the authorizer's included)"],
    [
      [`${r.answer}: 200`, grouped(r.bytes200), String(r.dynamoDb200)],
      [`${r.answer}: 304`, grouped(r.bytes304), String(r.dynamoDb304)],
    ],
  );

const burstLine = ({ wire: { burst } }: Measurements) =>
  `${burst.succeeded} of ${burst.reads} reads succeeded in ${grouped(burst.ms)} ms, ` +
  `with ${burst.throttledOnWire} answers of 429 on the wire.`;

const targetTable = (targets: Target[]) =>
  table(
    ['target', 'measured', 'result'],
    targets.map(({ target, measured, pass }) => [target, measured, pass ? 'PASS' : 'FAIL']),
  );

export function report(results: Measurements, targets: Target[]): string {
  return [
    '## Functions next to their baselines',
    functionTable(results),
    bundleParts(results),
    '## DynamoDB per call (RRU/WRU: on-demand request units)',
    dynamoDbTable(results),
    '## Bytes on the wire (local gateway, seeded pets)',
    sizeTable(results),
    revalidationTable(results),
    `## A burst through the client, on a key of staging's limits`,
    burstLine(results),
    '## Local server under load',
    loadTable(results),
    `## Cost per million calls at ${results.cost.memoryMb} MB (authorizer cache hit rate ${ASSUMPTIONS.authorizerCacheHitRate * 100} %)`,
    costTable(results),
    `## By memory size (modelled: CPU time x ${ASSUMPTIONS.fullVcpuMemoryMb} / memory, ${ASSUMPTIONS.dynamoDbRoundTripMs} ms per DynamoDB request)`,
    memoryTable(results),
    `Init of one cold start, per million cold starts (any size up to ${ASSUMPTIONS.fullVcpuMemoryMb} MB): ${coldStartCost(results)}`,
    '## Targets',
    targetTable(targets),
  ].join('\n\n');
}
