// Operations, one for each route of shared/http/routes.ts: the Record over OperationId makes a new
// route fail the type check until it is described here.
import { API_METHODS } from '#shared/http/api-methods.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { BASE_PATH, LIST_PAGE_MAX_AGE_SECONDS, ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';
import { PAGE_SIZE } from '#shared/schemas.ts';
import { jsonContent, schemaRef } from '#scripts/openapi/objects.ts';
import type { Json } from '#scripts/openapi/objects.ts';
import { operationResponses } from '#scripts/openapi/operation-responses.ts';
import {
  IDEMPOTENCY_KEY_PARAMETER,
  IF_NONE_MATCH_PARAMETER,
  parameterList,
  PATH_PARAMETERS,
  QUERY_PARAMETERS,
} from '#scripts/openapi/parameters.ts';
import {
  ANSWER_HEADER_REFS,
  DEPRECATION_HEADER_REFS,
  VALIDATOR_HEADER_REFS,
  header,
  notModified,
} from '#scripts/openapi/response-headers.ts';

const petContent = jsonContent(schemaRef('Pet'));

/** '`limit`, `status` and `cursor`': the query parameters a cached page of listPets is keyed by. */
const LIST_CACHE_KEY = (
  API_METHODS.find((method) => method.operationId === 'listPets')?.cacheKeyQueryParameters ?? []
)
  .map((name) => `\`${name}\``)
  .join(', ')
  .replace(/, (?=[^,]*$)/, ' and ');

const NEXT_PAGE_LINK = header(
  'RFC 8288 link to the next page, present only when more animals follow: ' +
    `\`<${BASE_PATH}/pets?limit=...&status=...&cursor=...>; rel="next"\` (path-absolute).`,
  { type: 'string', pattern: `^<${BASE_PATH}/pets\\?[^>]*cursor=[^>]*>; rel="next"$` },
  false,
);

const OPERATIONS: Record<OperationId, Json> = {
  listPets: {
    summary: 'List animals',
    description:
      'Animals in ascending `id` order, at most `limit` of them. When more follow, the `Link` header ' +
      'points at the next page. Following the links visits every animal that existed for the whole walk ' +
      'exactly once. Unknown query parameters are ignored; a known one given twice is a 400. On the ' +
      `production server a page may be up to ${LIST_PAGE_MAX_AGE_SECONDS} seconds old: API Gateway caches it by ` +
      `${LIST_CACHE_KEY}, for every API key alike. A new animal may take that long to appear ` +
      'in a list, a filtered one a moment longer; getPet reads it at once.',
    parameters: [...parameterList('query', QUERY_PARAMETERS), IF_NONE_MATCH_PARAMETER],
    responses: operationResponses(
      {
        200: {
          description: 'A page of animals (an empty array when there are none).',
          headers: { ...VALIDATOR_HEADER_REFS, Link: NEXT_PAGE_LINK, ...ANSWER_HEADER_REFS },
          content: jsonContent({ type: 'array', items: schemaRef('Pet'), maxItems: PAGE_SIZE.max }),
        },
        304: notModified({ Link: NEXT_PAGE_LINK }),
      },
      ['ValidationError'],
    ),
  },
  createPet: {
    summary: 'Add an animal',
    parameters: [IDEMPOTENCY_KEY_PARAMETER],
    requestBody: {
      required: true,
      description: `At most ${MAX_BODY_BYTES} bytes of \`application/json\`.`,
      content: jsonContent(schemaRef('NewPet')),
    },
    responses: operationResponses(
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
              '`true` when this answer replays an earlier request with the same `Idempotency-Key`.',
              { type: 'string', const: 'true' },
              false,
            ),
            ...ANSWER_HEADER_REFS,
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
      'Deprecated since 1 January 2026, and removed on 5 December 2030 (the `Sunset` date). Use listPets ' +
      '(`GET /pets`) with its `status` filter instead. Its answers carry the `Deprecation`, `Sunset` and ' +
      "`Link` headers; API Gateway's own (401, 403, 429, 500, 502, 503, 504) do not.",
    deprecated: true,
    parameters: [...parameterList('path', PATH_PARAMETERS), IF_NONE_MATCH_PARAMETER],
    responses: operationResponses(
      {
        200: {
          description: 'The animal.',
          headers: { ...VALIDATOR_HEADER_REFS, ...DEPRECATION_HEADER_REFS, ...ANSWER_HEADER_REFS },
          content: petContent,
        },
        304: notModified(DEPRECATION_HEADER_REFS),
      },
      ['ValidationError', 'NotFound'],
      DEPRECATION_HEADER_REFS,
    ),
  },
};

export function paths(): Json {
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
