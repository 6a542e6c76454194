// v1's contract is frozen: openapi.v1-baseline.json is the document as last released, and openapi.json
// may only add to it. This names what a client written against the baseline would trip over: a removed
// or renamed operation, parameter, field, header, media type or status, a new required input, a narrowed
// request or a widened response schema. The baseline moves only on purpose (docs/openapi.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJson } from '#shared/json.ts';
import { GENERATED_FILES } from '#scripts/openapi/files.ts';
import { asList, asNode, isNode, resolver } from '#scripts/openapi/json-nodes.ts';
import type { Node } from '#scripts/openapi/json-nodes.ts';
import { schemaChanges } from '#scripts/openapi/schema-changes.ts';
import type { SchemaContext } from '#scripts/openapi/schema-changes.ts';

export const BASELINE_PATH = fileURLToPath(new URL('../../openapi.v1-baseline.json', import.meta.url));

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Resolve = SchemaContext['resolve'];

/** Path-level and operation-level parameters (the latter win), keyed by where and name. */
function parameters(item: Node, operation: Node, resolve: Resolve['before']): Map<string, Node> {
  const all = [...asList(item.parameters), ...asList(operation.parameters)].map(resolve);
  const key = ({ in: where, name }: Node) =>
    `${String(where)} ${where === 'header' ? String(name).toLowerCase() : String(name)}`;
  return new Map(all.map((parameter) => [key(parameter), parameter]));
}

function inputChanges(b: [Node, Node], a: [Node, Node], resolve: Resolve): string[] {
  const [bParameters, aParameters] = [parameters(...b, resolve.before), parameters(...a, resolve.after)];
  const label = (parameter: Node) => `${String(parameter.in)} parameter "${String(parameter.name)}"`;
  const changes: string[] = [];
  for (const [key, was] of bParameters) {
    const [now, at] = [aParameters.get(key), label(was)];
    if (!now) {
      changes.push(`${at} removed`);
      continue;
    }
    if (was.required !== true && now.required === true) changes.push(`${at} became required`);
    changes.push(...schemaChanges(was.schema, now.schema, { flow: 'request', label: at, resolve }));
  }
  for (const [key, now] of aParameters) {
    if (!bParameters.has(key) && now.required === true) changes.push(`new required ${label(now)}`);
  }
  const [bBody, aBody] = [resolve.before(b[1].requestBody), resolve.after(a[1].requestBody)];
  if (bBody.required !== true && aBody.required === true) changes.push('request body became required');
  return [...changes, ...contentChanges(bBody, aBody, { flow: 'request', label: 'request body', resolve })];
}

function contentChanges(b: Node, a: Node, context: SchemaContext): string[] {
  const aContent = asNode(a.content);
  return Object.entries(asNode(b.content)).flatMap(([type, media]) =>
    isNode(aContent[type])
      ? schemaChanges(asNode(media).schema, aContent[type].schema, context)
      : [`${context.label} media type "${type}" removed`],
  );
}

function responseChanges(b: Node, a: Node, resolve: Resolve): string[] {
  const added = Object.keys(a).filter((status) => !(status in b));
  return Object.entries(b).flatMap(([status, response]) => {
    const label = `response ${status}`;
    if (!(status in a)) return [`${label} removed${added.length > 0 ? ` (added: ${added.join(', ')})` : ''}`];
    const [was, now] = [resolve.before(response), resolve.after(a[status])];
    const byName = (headers: unknown) =>
      new Map(
        Object.entries(asNode(headers)).map(([name, header]) => [name.toLowerCase(), { name, header }]),
      );
    const [bHeaders, aHeaders] = [byName(was.headers), byName(now.headers)];
    const changes = [...bHeaders].flatMap(([key, { name, header }]) => {
      const at = `${label} header "${name}"`;
      const after = aHeaders.get(key)?.header;
      if (after === undefined) return [`${at} removed`];
      const [bHeader, aHeader] = [resolve.before(header), resolve.after(after)];
      const optional =
        bHeader.required === true && aHeader.required !== true ? [`${at} became optional`] : [];
      return [
        ...optional,
        ...schemaChanges(bHeader.schema, aHeader.schema, { flow: 'response', label: at, resolve }),
      ];
    });
    return [...changes, ...contentChanges(was, now, { flow: 'response', label, resolve })];
  });
}

/** Each change from `baseline` to `current` that breaks a client, as "<METHOD> <path>: <what>". */
export function breakingChanges(baseline: unknown, current: unknown): string[] {
  const resolve = { before: resolver(baseline), after: resolver(current) };
  const aPaths = asNode(asNode(current).paths);
  return Object.entries(asNode(asNode(baseline).paths)).flatMap(([path, item]) => {
    const [bItem, aItem] = [resolve.before(item), resolve.after(aPaths[path])];
    return METHODS.filter((method) => isNode(bItem[method])).flatMap((method) => {
      const [bOperation, aOperation] = [asNode(bItem[method]), aItem[method]];
      const where = `${method.toUpperCase()} ${path}`;
      if (!isNode(aOperation)) return [`${where}: operation removed`];
      const [was, now] = [bOperation.operationId, aOperation.operationId].map(String);
      return [
        ...(was === now ? [] : [`operationId changed from "${was}" to "${now}"`]),
        ...inputChanges([bItem, bOperation], [aItem, aOperation], resolve),
        ...responseChanges(asNode(bOperation.responses), asNode(aOperation.responses), resolve),
      ].map((change) => `${where}: ${change}`);
    });
  });
}

const readDocument = (path: string) => parseJson(readFileSync(path, 'utf8'));

/** Each way `document` (by default the committed openapi.json) breaks the released v1, one a line. */
export const v1BreakingChanges = (document: unknown = readDocument(GENERATED_FILES.document)): string[] =>
  breakingChanges(readDocument(BASELINE_PATH), document).map((change) => `openapi.json breaks v1: ${change}`);
