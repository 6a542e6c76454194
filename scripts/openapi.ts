// `npm run openapi`: writes openapi.json (OpenAPI 3.1) and the client's types (client/schema.d.ts)
// from the zod schemas the handlers validate with, the error catalogue and the route table, so
// the document cannot drift from the code. `npm run openapi -- --check` writes nothing and exits
// 1 when a committed file differs from what would be generated (the tests do the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import type { SchemaObject, TransformNodeOptions } from 'openapi-typescript';
import * as prettier from 'prettier';
import ts from 'typescript';
import * as z from 'zod/mini';
import { ERROR_CATALOGUE, ErrorBody, RETRY_AFTER_SECONDS } from '#shared/errors.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '#shared/http/idempotency-key.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { AUTHORIZER, BASE_PATH, GET_PET_DEPRECATION_HEADERS, ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';
import {
  INT64_MAX,
  NAME_MAX_CODE_POINTS,
  NewPet,
  PAGE_SIZE,
  Pet,
  PET_ID_MAX,
  PetId,
  PetName,
  PetStatus,
} from '#shared/schemas.ts';
import type { GetPetPath, ListPetsQuery } from '#shared/schemas.ts';

type Json = Record<string, unknown>;

export const GENERATED_FILES = {
  document: fileURLToPath(new URL('../openapi.json', import.meta.url)),
  clientTypes: fileURLToPath(new URL('../client/schema.d.ts', import.meta.url)),
} as const;

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

// ---------------------------------------------------------------------------------------------
// Schemas, converted from zod. JSON Schema has no bigint: categoryId (a bigint because bodies are
// parsed int64-exact) is described as the int64 integer it is on the wire. Any other bigint, or
// any other unrepresentable type, stops the generator: it needs a decision, not a guess.

/** int64 from 1; INT64_MAX stays a bigint so the document's text holds its exact digits. */
const CATEGORY_ID_SCHEMA = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: INT64_MAX,
  description:
    `The category's id, an integer from 1 to ${INT64_MAX} (int64). Kept exactly: a value above ` +
    '2^53 comes back with the same digits, so read it with a JSON parser that keeps big integers ' +
    '(JavaScript: a JSON.parse reviver using context.source, as client/index.ts does).',
};

const NAME_RULES = {
  minLength: 1,
  maxLength: NAME_MAX_CODE_POINTS,
  // ECMA-262's \s is exactly the set String.prototype.trim removes, so this is "not only whitespace".
  pattern: '\\S',
  description:
    `The animal's name: 1 to ${NAME_MAX_CODE_POINTS} characters counted as Unicode code points ` +
    '(an emoji is one), not only whitespace. Stored and returned as sent.',
};

const PET_ID_RULES = {
  format: 'int64',
  description:
    `Assigned by the service on creation: unique, never reused, from 1 to ${PET_ID_MAX} (2^53-1) ` +
    'so every JSON client reads it exactly.',
};

const STATUS_DESCRIPTION = 'Availability of the animal.';

/** zod's JSON output cannot hold a bigint (INT64_MAX), so categoryId is filled in after conversion. */
const CATEGORY_ID_PLACEHOLDER = 'categoryId: int64, filled in after conversion';

function bigintAsInt64({ zodSchema, path }: { zodSchema: z.core.$ZodTypes; path: (string | number)[] }) {
  if (zodSchema._zod.def.type === 'bigint' && path.join('.') === 'properties.categoryId') {
    return { $comment: CATEGORY_ID_PLACEHOLDER };
  }
  throw new Error(`No JSON Schema for the ${zodSchema._zod.def.type} at ${path.join('.') || '(root)'}`);
}

function withCategoryId({ $schema: _dialect, $id: _id, ...schema }: Json): Json {
  const properties = schema.properties as Record<string, Json> | undefined;
  const placeholders = JSON.stringify(schema).split(CATEGORY_ID_PLACEHOLDER).length - 1;
  if (placeholders === 0) return schema;
  if (placeholders > 1 || properties?.categoryId?.$comment !== CATEGORY_ID_PLACEHOLDER) {
    throw new Error('categoryId is nested differently than before: place its int64 schema');
  }
  properties.categoryId = { ...CATEGORY_ID_SCHEMA };
  return schema;
}

function addOpenApiDetails({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Json }) {
  if (zodSchema === PetName) Object.assign(jsonSchema, NAME_RULES);
  if (zodSchema === PetId) Object.assign(jsonSchema, PET_ID_RULES);
}

/** Each schema under its component name, with references between them; `io` picks the request or response side. */
function zodComponents(io: 'input' | 'output', schemas: Record<string, z.ZodMiniType>): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: bigintAsInt64,
    override: addOpenApiDetails,
    uri: (id) => schemaRef(id).$ref,
  });
  return Object.fromEntries(
    Object.entries(converted.schemas).map(([name, schema]) => [name, withCategoryId(schema)]),
  );
}

const ERROR_CODE_WHEN: Record<ErrorCode, string> = {
  validation_error: 'a body, path or query parameter is invalid; malformed JSON; empty body; bad cursor',
  unauthorized: 'the API key is missing, malformed, unknown or revoked',
  not_found: 'the animal or the route does not exist',
  method_not_allowed: 'the path exists, the method is not offered there (with `Allow`)',
  idempotency_conflict:
    'the `Idempotency-Key` is still in use by a running request (409) or was used with another body (422)',
  payload_too_large: `the request body is over ${MAX_BODY_BYTES / 1024} KiB`,
  unsupported_media_type: 'the body is not `application/json` (a `charset=utf-8` parameter is fine)',
  too_many_requests: 'throttled or over quota; with `Retry-After` where known',
  internal_error: 'a bug; logged with the request id, nothing internal is shown',
  service_unavailable: 'the database is unreachable or throttling; with `Retry-After`',
};

function errorCatalogueTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => {
    const statuses = code === 'idempotency_conflict' ? '409, 422' : String(status);
    return `| ${statuses} | \`${code}\` | ${ERROR_CODE_WHEN[code as ErrorCode]} |`;
  });
  return ['| HTTP | code | when |', '|---|---|---|', ...rows].join('\n');
}

function componentSchemas(): Record<string, Json> {
  const schemas = {
    ...zodComponents('input', { PetStatus, NewPet }),
    ...zodComponents('output', { PetStatus, Pet, Error: ErrorBody }),
  };
  const describe = (name: string, description: string, properties: Record<string, string> = {}) => {
    const schema = schemas[name] as Json & { properties?: Record<string, Json> };
    schema.description = description;
    for (const [property, text] of Object.entries(properties))
      Object.assign(schema.properties?.[property] ?? {}, { description: text });
  };
  describe('PetStatus', 'Availability of an animal. An animal added without a status is `available`.');
  describe('NewPet', 'An animal to add: exactly these fields; any other field (`id` included) is a 400.', {
    status: `${STATUS_DESCRIPTION} Omitted: \`available\`.`,
  });
  describe(
    'Pet',
    'An animal: the fields of NewPet plus its `id`. Every response object has exactly these four.',
    {
      name: 'The name, as it was sent on creation (see NewPet).',
      status: STATUS_DESCRIPTION,
    },
  );
  describe(
    'Error',
    `Every non-2xx response, API Gateway's own included. Codes:\n\n${errorCatalogueTable()}`,
    {
      code: 'Machine-readable error code (see the table above).',
      message: 'For humans: names the offending field or parameter (`name: ...`, `limit: ...`).',
      status: 'The HTTP status code of the response.',
    },
  );
  return schemas;
}

// ---------------------------------------------------------------------------------------------
// Headers and responses.

const header = (description: string, schema: Json, required = true) => ({ description, required, schema });

const RETRY_AFTER = (required: boolean) =>
  header(
    'Seconds to wait before retrying (the delay-seconds form of RFC 9110).',
    { type: 'integer', minimum: 0, examples: [RETRY_AFTER_SECONDS] },
    required,
  );

/** In components.headers; the responses of getPet's function refer to them. */
const DEPRECATION_HEADERS = {
  Deprecation: header('RFC 9745: getPet is deprecated since 2026-01-01T00:00:00Z.', {
    type: 'string',
    const: GET_PET_DEPRECATION_HEADERS.Deprecation,
  }),
  Sunset: header('RFC 8594: getPet is removed on 5 December 2030.', {
    type: 'string',
    const: GET_PET_DEPRECATION_HEADERS.Sunset,
  }),
  Link: header('The replacement: listPets (`GET /pets`) with its `status` filter.', {
    type: 'string',
    const: GET_PET_DEPRECATION_HEADERS.Link,
  }),
};

const DEPRECATION_HEADER_REFS = {
  Deprecation: { $ref: '#/components/headers/Deprecation' },
  Sunset: { $ref: '#/components/headers/Sunset' },
  Link: { $ref: '#/components/headers/SuccessorVersionLink' },
};

const jsonContent = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined && { example }) },
});

type ErrorResponse = { code: ErrorCode; status?: number; description: string; headers?: Json };

/** One reusable response per error the API answers; idempotency_conflict has two statuses. */
const ERROR_RESPONSES = {
  ValidationError: { code: 'validation_error', description: 'A parameter, header or the body is invalid.' },
  Unauthorized: {
    code: 'unauthorized',
    description: 'The API key is missing, malformed, unknown or revoked.',
  },
  NotFound: { code: 'not_found', description: 'The animal, or any route, does not exist.' },
  MethodNotAllowed: {
    code: 'method_not_allowed',
    description: 'The path exists but does not offer this method.',
    headers: {
      Allow: header('The methods the path offers.', { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' }),
    },
  },
  IdempotencyInProgress: {
    code: 'idempotency_conflict',
    status: 409,
    description: 'A request with this `Idempotency-Key` is still running; retry later.',
  },
  IdempotencyMismatch: {
    code: 'idempotency_conflict',
    status: 422,
    description: 'This `Idempotency-Key` was used with another body.',
  },
  PayloadTooLarge: { code: 'payload_too_large', description: `The body is over ${MAX_BODY_BYTES} bytes.` },
  UnsupportedMediaType: {
    code: 'unsupported_media_type',
    description: 'The body is not `application/json` (a `charset=utf-8` parameter is fine).',
  },
  TooManyRequests: {
    code: 'too_many_requests',
    description: 'Throttled, or the API key is over its quota.',
    headers: { 'Retry-After': RETRY_AFTER(false) },
  },
  InternalError: { code: 'internal_error', description: 'A bug; nothing internal is shown.' },
  ServiceUnavailable: {
    code: 'service_unavailable',
    description: 'The database is unreachable or throttling.',
    headers: { 'Retry-After': RETRY_AFTER(true) },
  },
} satisfies Record<string, ErrorResponse>;

type ErrorResponseName = keyof typeof ERROR_RESPONSES;

const statusOf = (response: ErrorResponse) => response.status ?? ERROR_CATALOGUE[response.code].status;

/** The Error schema narrowed to this response's code and status, so `status` always equals the HTTP status. */
function errorResponseObject(response: ErrorResponse, extraHeaders: Json = {}): Json {
  const status = statusOf(response);
  const narrowed = {
    type: 'object',
    properties: { code: { const: response.code }, status: { const: status } },
    required: ['code', 'status'],
  };
  const headers = { ...response.headers, ...extraHeaders };
  return {
    description: `\`${response.code}\`: ${response.description}`,
    ...(Object.keys(headers).length > 0 && { headers }),
    content: jsonContent(
      { allOf: [schemaRef('Error'), narrowed] },
      { code: response.code, message: ERROR_CATALOGUE[response.code].message, status },
    ),
  };
}

/** What any request can get from API Gateway, before or instead of the function. */
const GATEWAY_ERRORS: ErrorResponseName[] = [
  'Unauthorized',
  'TooManyRequests',
  'InternalError',
  'ServiceUnavailable',
];

/** Responses keyed by status in ascending order; errors by reference unless they carry extra headers. */
function responses(
  success: Record<number, Json>,
  errors: ErrorResponseName[],
  extraErrorHeaders?: Json,
): Json {
  const entries: [number, Json][] = Object.entries(success).map(([status, response]) => [
    Number(status),
    response,
  ]);
  for (const name of [...errors, ...GATEWAY_ERRORS]) {
    const response: ErrorResponse = ERROR_RESPONSES[name];
    const own = extraErrorHeaders && errors.includes(name);
    entries.push([
      statusOf(response),
      own ? errorResponseObject(response, extraErrorHeaders) : responseRef(name),
    ]);
  }
  return Object.fromEntries(
    entries.sort(([a], [b]) => a - b).map(([status, response]) => [String(status), response]),
  );
}

// ---------------------------------------------------------------------------------------------
// Parameters: one entry per field of the zod schema the handler parses them with, so a new
// parameter cannot go undocumented (the Record types below demand it).

const PLAIN_DECIMAL = 'a plain decimal integer: no sign, no leading zeros, no spaces';

const QUERY_PARAMETERS: Record<keyof typeof ListPetsQuery.shape, Json> = {
  limit: {
    description: `Maximum number of animals returned, ${PLAIN_DECIMAL}. Anything else is a 400.`,
    schema: { type: 'integer', minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default },
  },
  status: { description: 'Only animals with this status are returned.', schema: schemaRef('PetStatus') },
  cursor: {
    description:
      'Where the page starts: copy it from the `Link: rel="next"` header of the previous page. Opaque; ' +
      'valid for at least 24 hours and with any `limit`, but only with the same `status`. A cursor the ' +
      'service did not issue is a 400.',
    schema: { type: 'string' },
  },
};

const PATH_PARAMETERS: Record<keyof typeof GetPetPath.shape, Json> = {
  petId: {
    description: `The animal's id, ${PLAIN_DECIMAL}. Not a positive int64: 400.`,
    schema: { type: 'integer', format: 'int64', minimum: 1, maximum: INT64_MAX },
  },
};

const parameterList = (location: 'query' | 'path', parameters: Record<string, Json>) =>
  Object.entries(parameters).map(([name, parameter]) => ({
    name,
    in: location,
    ...(location === 'path' && { required: true }),
    ...parameter,
  }));

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  description:
    'Makes retries safe: the same key (per API key) with the same body within 24 hours returns the ' +
    'first 201 again, with `Idempotent-Replayed: true`, and creates nothing. The same key with another ' +
    'body is a 422; while the first request is still running, a 409. A request answered with a 4xx ' +
    'does not use up its key. 1 to 255 visible ASCII characters, given once.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

// ---------------------------------------------------------------------------------------------
// Operations, one for each route of shared/http/routes.ts.

const petContent = jsonContent(schemaRef('Pet'));

const OPERATIONS: Record<OperationId, Json> = {
  listPets: {
    summary: 'List animals',
    description:
      'Animals ordered by `id`, ascending, at most `limit` of them. When more follow, the `Link` header ' +
      'points at the next page; following it visits every animal that existed for the whole walk exactly ' +
      'once. Unknown query parameters are ignored; a known one given twice is a 400.',
    parameters: parameterList('query', QUERY_PARAMETERS),
    responses: responses(
      {
        200: {
          description: 'A page of animals (an empty array when there are none).',
          headers: {
            Link: header(
              'RFC 8288 link to the next page, present only when more animals follow: ' +
                `\`<${BASE_PATH}/pets?limit=...&status=...&cursor=...>; rel="next"\` (path-absolute).`,
              { type: 'string', pattern: `^<${BASE_PATH}/pets\\?[^>]*cursor=[^>]*>; rel="next"$` },
              false,
            ),
          },
          content: jsonContent({ type: 'array', items: schemaRef('Pet'), maxItems: PAGE_SIZE.max }),
        },
      },
      ['ValidationError'],
    ),
  },
  createPet: {
    summary: 'Add an animal',
    parameters: [IDEMPOTENCY_KEY_PARAMETER],
    requestBody: {
      required: true,
      description: `At most ${MAX_BODY_BYTES} bytes, sent as \`application/json\`.`,
      content: jsonContent(schemaRef('NewPet')),
    },
    responses: responses(
      {
        201: {
          description: 'The animal, with the id the service assigned (or, on a replay, the first one).',
          headers: {
            Location: header(`The new animal: \`${BASE_PATH}/pets/{id}\` (path-absolute).`, {
              type: 'string',
              format: 'uri-reference',
              pattern: `^${BASE_PATH}/pets/[1-9][0-9]*$`,
            }),
            'Idempotent-Replayed': header(
              'Present, as `true`, when this answer replays an earlier request with the same `Idempotency-Key`.',
              { type: 'string', const: 'true' },
              false,
            ),
          },
          content: petContent,
        },
      },
      [
        'ValidationError',
        'IdempotencyInProgress',
        'PayloadTooLarge',
        'UnsupportedMediaType',
        'IdempotencyMismatch',
      ],
    ),
  },
  getPet: {
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated since 1 January 2026 and removed on 5 December 2030 (the `Sunset` date). Use listPets ' +
      '(`GET /pets`) with its `status` filter instead. Until then it behaves as described here; all its ' +
      "answers but API Gateway's own (401, 429, 500, 503) carry the `Deprecation`, `Sunset` and `Link` headers.",
    deprecated: true,
    parameters: parameterList('path', PATH_PARAMETERS),
    responses: responses(
      { 200: { description: 'The animal.', headers: DEPRECATION_HEADER_REFS, content: petContent } },
      ['ValidationError', 'NotFound'],
      DEPRECATION_HEADER_REFS,
    ),
  },
};

function paths(): Json {
  const result: Record<string, Json> = {};
  for (const route of ROUTES) {
    result[route.path] ??= {};
    Object.assign(result[route.path] as Json, {
      [route.method.toLowerCase()]: {
        operationId: route.operationId,
        tags: ['pets'],
        ...OPERATIONS[route.operationId],
      },
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The document.

const API_DESCRIPTION = `
The pet store catalogue: list animals, filter them by status, add one, fetch one.

**Authentication.** Every operation needs an API key as a bearer token:
\`Authorization: Bearer <key>\` (the scheme in any case, the key exactly as issued).

**Errors.** Every non-2xx response, API Gateway's own included, is \`application/json\` with an
Error object whose \`status\` equals the HTTP status. The codes:

${errorCatalogueTable()}

When several apply, the first of these wins: 401 (on every path, known or not), then 404 or 405,
then 413, then 415, then 400.

**Requests no operation describes.** Any other path is answered \`404\` (\`NotFound\`); a known path
asked with another method \`405\` (\`MethodNotAllowed\`, with an \`Allow\` header). Both after 401.

**Numbers.** \`categoryId\` is an int64 kept exactly: values above 2^53 come back with the same
digits, as JSON numbers. Animal ids stay below 2^53 so every JSON client reads them exactly.

**Limits.** Request bodies: at most ${MAX_BODY_BYTES / 1024} KiB. Throttling per stage and per key
answers 429.
`.trim();

const SERVER_HOST_DESCRIPTION =
  "The stage's host: its custom domain, or the `{restApiId}.execute-api.{region}.amazonaws.com` " +
  'host the deployment prints.';

const server = (description: string, defaultHost: string) => ({
  url: `https://{host}${BASE_PATH}`,
  description,
  variables: { host: { default: defaultHost, description: SERVER_HOST_DESCRIPTION } },
});

export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.1',
    info: { title: 'Pet store API', version: '1.0.0', description: API_DESCRIPTION },
    servers: [
      server('Production', 'api.example.com'),
      server('Staging', 'staging.api.example.com'),
      { url: `http://127.0.0.1:3000${BASE_PATH}`, description: 'The local server of `npm start`' },
    ],
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'pets', description: 'The animals sold in the store.' }],
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, response]) => [name, errorResponseObject(response)]),
      ),
      headers: {
        Deprecation: DEPRECATION_HEADERS.Deprecation,
        Sunset: DEPRECATION_HEADERS.Sunset,
        SuccessorVersionLink: DEPRECATION_HEADERS.Link,
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: `An API key sent as \`${AUTHORIZER.header}: Bearer <key>\`.`,
        },
      },
    },
  };
}

/** Two-space JSON whose bigints (INT64_MAX) are written with their exact digits. */
export function renderOpenApiJson(document: Json): string {
  const exact = (_key: string, value: unknown) =>
    typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
  return `${JSON.stringify(document, exact, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// The client's types. openapi-typescript types every integer as number; an int64 that can exceed
// 2^53 is a bigint in responses (client/index.ts parses it exactly) and number | bigint in requests.

const isUnsafeInt64 = (schema: SchemaObject) =>
  'format' in schema &&
  schema.format === 'int64' &&
  'maximum' in schema &&
  Number(schema.maximum) > Number.MAX_SAFE_INTEGER;

const isRequestSide = (path = '') =>
  path.includes('/parameters/') || /^#\/components\/schemas\/NewPet(\/|$)/.test(path);

function int64AsBigint(schema: SchemaObject, options: TransformNodeOptions) {
  if (!isUnsafeInt64(schema)) return undefined;
  const bigint = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);
  if (!isRequestSide(options.path)) return bigint;
  return ts.factory.createUnionTypeNode([
    ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
    bigint,
  ]);
}

const CLIENT_TYPES_HEADER =
  '// Generated by `npm run openapi` from openapi.json with openapi-typescript: do not edit.\n';

export async function renderClientTypes(documentText: string): Promise<string> {
  // defaultNonNullable would make NewPet.status required because it has a default.
  const nodes = await openapiTS(documentText, {
    transform: int64AsBigint,
    defaultNonNullable: false,
    silent: true,
  });
  const source = CLIENT_TYPES_HEADER + astToString(nodes);
  const config = await prettier.resolveConfig(GENERATED_FILES.clientTypes);
  return prettier.format(source, { ...config, filepath: GENERATED_FILES.clientTypes });
}

export type GeneratedFile = { path: string; text: string };

export async function generateFiles(): Promise<GeneratedFile[]> {
  const document = renderOpenApiJson(buildOpenApiDocument());
  return [
    { path: GENERATED_FILES.document, text: document },
    { path: GENERATED_FILES.clientTypes, text: await renderClientTypes(document) },
  ];
}

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export const staleFiles = (files: GeneratedFile[]) =>
  files.filter((file) => readOrEmpty(file.path) !== file.text);

async function main(args: string[]) {
  const check = args.includes('--check');
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) throw new Error(`Unknown arguments: ${unknown.join(' ')} (only --check)`);
  const files = await generateFiles();
  if (!check) {
    for (const file of files) writeFileSync(file.path, file.text);
    return;
  }
  const stale = staleFiles(files);
  for (const file of stale) console.error(`${file.path} is stale: run npm run openapi`);
  process.exitCode = stale.length > 0 ? 1 : 0;
}

if (import.meta.main) await main(process.argv.slice(2));
