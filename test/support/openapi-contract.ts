// Checks a real HTTP response against the committed openapi.json: the operation (or, for a request
// no operation describes, the documented 404/405), the status, every documented header and the
// body. Integers are compared exactly: bodies are parsed with shared/json.ts (int64 stays a
// bigint), and every `type: integer` schema is checked by an `exactInteger` keyword on bigints.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseJson } from '#shared/json.ts';

export type ObservedResponse = {
  method: string;
  /** The request path as sent, under /v1 and with any query string: '/v1/pets/42?limit=5'. */
  path: string;
  status: number;
  headers: Headers | Record<string, string>;
  bodyText: string;
};

type Json = Record<string, unknown>;
type Bounds = { minimum?: string; maximum?: string };

const DOCUMENT_URL = new URL('../../openapi.json', import.meta.url);
const SCHEMAS_ID = 'openapi.json';
const INT64 = { minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n };

/** What a request no operation describes can get (components.responses), as the document says. */
const GATEWAY_ERRORS = {
  401: 'Unauthorized',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};
const UNROUTED = {
  path: { ...GATEWAY_ERRORS, 404: 'NotFound' },
  method: { ...GATEWAY_ERRORS, 405: 'MethodNotAllowed' },
};

/**
 * Integers that fit a double exactly become numbers (so const and enum compare); larger ones stay
 * bigints.
 */
function narrowSafeIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(narrowSafeIntegers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, narrowSafeIntegers(member)]),
    );
  }
  return value;
}

/** `type: integer` with its bounds becomes `exactInteger`, which ajv checks on numbers and bigints alike. */
function integerAsExact(schema: Json): Json {
  const { type: _type, minimum, maximum, format, ...rest } = schema;
  for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']) {
    if (keyword in rest) throw new Error(`openapi-contract: ${keyword} on an integer is not supported`);
  }
  if (format !== undefined && format !== 'int64')
    throw new Error(`openapi-contract: format ${String(format)}`);
  // int64 without an explicit bound is still bounded by int64 itself.
  const bound = (value: unknown, int64Limit: bigint) =>
    value === undefined ? (format === 'int64' ? int64Limit : undefined)?.toString() : String(value);
  return {
    ...rest,
    exactInteger: { minimum: bound(minimum, INT64.minimum), maximum: bound(maximum, INT64.maximum) },
  };
}

/** The document as ajv can use it: exact integers, and schema references into one registered schema. */
function forValidation(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forValidation);
  if (node === null || typeof node !== 'object') return node;
  const object = node as Json;
  if (Array.isArray(object.type) && object.type.includes('integer')) {
    throw new Error('openapi-contract: a type list with integer is not supported');
  }
  const walked = Object.fromEntries(
    Object.entries(object).map(([key, member]) => [key, forValidation(member)]),
  );
  if (typeof walked.$ref === 'string') {
    walked.$ref = walked.$ref.replace('#/components/schemas/', `${SCHEMAS_ID}#/$defs/`);
  }
  return walked.type === 'integer' ? integerAsExact(walked) : walked;
}

function isExactInteger(bounds: Bounds, data: unknown): boolean {
  if (typeof data !== 'bigint' && !(typeof data === 'number' && Number.isInteger(data))) return false;
  const value = BigInt(data);
  return (
    (bounds.minimum === undefined || value >= BigInt(bounds.minimum)) &&
    (bounds.maximum === undefined || value <= BigInt(bounds.maximum))
  );
}

function loadContract() {
  const document = forValidation(narrowSafeIntegers(parseJson(readFileSync(DOCUMENT_URL, 'utf8')))) as Json;
  const ajv = new Ajv2020({ allErrors: true });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: 'exactInteger', schemaType: 'object', validate: isExactInteger, errors: false });
  const components = document.components as Record<string, Json>;
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: components.schemas }, SCHEMAS_ID);
  const serverPaths = new Set(
    (document.servers as { url: string }[]).map(
      ({ url }) => new URL(url.replace(/\{\w+\}/g, 'host')).pathname,
    ),
  );
  if (serverPaths.size !== 1) throw new Error('openapi-contract: every server must share one base path');
  const [basePath = ''] = serverPaths;
  const routes = Object.entries(document.paths as Record<string, Json>).map(([template, pathItem]) => ({
    pattern: new RegExp(`^${basePath}${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    pathItem,
  }));
  return { document, ajv, routes };
}

let contract: ReturnType<typeof loadContract> | undefined;
const loaded = () => (contract ??= loadContract());

/** Follows a local `#/...` reference (responses and headers may be references). */
function resolve(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      loaded().document,
    );
  if (target === undefined) throw new Error(`openapi-contract: unresolved ${node.$ref}`);
  return resolve(target as Json);
}

/** ajv caches what it compiles by schema object, and the document's objects live as long as the module. */
function schemaErrors(schema: Json, data: unknown, where: string): string[] {
  return validationErrors(loaded().ajv.compile(schema), data, where);
}

function validationErrors(validate: ValidateFunction, data: unknown, where: string): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map(
    (error) => `${where}${error.instancePath} ${error.message ?? 'is invalid'}`,
  );
}

type Candidates = { what: string; responses: Json };

/**
 * The documented responses for this request: its operation's, or those of a request no operation
 * describes.
 */
function candidatesFor(method: string, requestPath: string): Candidates {
  const { routes, document } = loaded();
  const path = requestPath.split('?')[0] ?? '';
  const route = routes.find(({ pattern }) => pattern.test(path));
  const componentResponses = (document.components as Record<string, Json>).responses as Json;
  const unrouted = (names: Record<number, string>) =>
    Object.fromEntries(Object.entries(names).map(([status, name]) => [status, componentResponses[name]]));
  if (!route) return { what: 'an unknown path', responses: unrouted(UNROUTED.path) };
  const operation = route.pathItem[method.toLowerCase()] as Json | undefined;
  if (!operation) return { what: `a path without ${method}`, responses: unrouted(UNROUTED.method) };
  return { what: `operation ${String(operation.operationId)}`, responses: operation.responses as Json };
}

function headerErrors(documented: Json, headers: Headers): string[] {
  return Object.entries(documented).flatMap(([name, definition]) => {
    const { required, schema } = resolve(definition as Json) as { required?: boolean; schema: Json };
    const value = headers.get(name);
    if (value === null) return required ? [`header ${name} is missing`] : [];
    // Headers are text; an integer header (Retry-After) is compared as the number it spells.
    const typed = 'exactInteger' in schema && /^\d+$/.test(value) ? narrowSafeIntegers(BigInt(value)) : value;
    return schemaErrors(schema, typed, `header ${name}`);
  });
}

/** Parses JSON text int64-exact; undefined when it is not JSON. */
function parsedBody(text: string): { value: unknown } | undefined {
  try {
    return { value: narrowSafeIntegers(parseJson(text)) };
  } catch {
    return undefined;
  }
}

/** What is wrong with a JSON text against one of components.schemas (empty when it is valid). */
export function openApiSchemaErrors(component: string, jsonText: string): string[] {
  const body = parsedBody(jsonText);
  if (!body) return ['not JSON'];
  const validate = loaded().ajv.getSchema(`${SCHEMAS_ID}#/$defs/${component}`);
  if (!validate) throw new Error(`openapi-contract: no schema ${component}`);
  return validationErrors(validate, body.value, component);
}

/**
 * What is wrong with a parameter's value (as JSON text: `"sold"`, `20`) against the parameter of that
 * name of an operation (empty when it is valid).
 */
export function openApiParameterErrors(operationId: string, name: string, jsonText: string): string[] {
  const operation = Object.values(loaded().document.paths as Record<string, Json>)
    .flatMap((pathItem) => Object.values(pathItem) as Json[])
    .find((candidate) => candidate.operationId === operationId);
  const parameter = (operation?.parameters as Json[] | undefined)
    ?.map(resolve)
    .find((candidate) => candidate.name === name);
  if (!parameter) throw new Error(`openapi-contract: ${operationId} has no parameter ${name}`);
  const value = parsedBody(jsonText);
  if (!value) return ['not JSON'];
  return schemaErrors(parameter.schema as Json, value.value, `parameter ${name}`);
}

function bodyErrors(response: Json, headers: Headers, bodyText: string): string[] {
  const content = response.content as Record<string, Json> | undefined;
  if (!content) return bodyText === '' ? [] : ['body: none is documented, but one was sent'];
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const media = content[mediaType];
  if (!media)
    return [`Content-Type ${mediaType || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
  const body = parsedBody(bodyText);
  if (!body) return [`body is not JSON: ${bodyText.slice(0, 80)}`];
  return schemaErrors(media.schema as Json, body.value, 'body');
}

const responseErrors = (response: Json, headers: Headers, bodyText: string) => [
  ...headerErrors((response.headers as Json | undefined) ?? {}, headers),
  ...bodyErrors(response, headers, bodyText),
];

/** Throws, naming every difference, unless the response is one the document describes. */
export function assertResponseMatchesOpenApi(observed: ObservedResponse): void {
  const { method, path, status, bodyText } = observed;
  const headers = new Headers(observed.headers);
  const { what, responses } = candidatesFor(method, path);
  const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  const problems = documented
    ? responseErrors(resolve(documented as Json), headers, bodyText)
    : [`status ${status} is not documented for ${what} (documented: ${Object.keys(responses).join(', ')})`];
  if (problems.length > 0) {
    throw new Error(
      `${method} ${path} answered ${status}, against openapi.json:\n- ${problems.join('\n- ')}`,
    );
  }
}
