// Parameters: one entry per field of the zod schema the handler parses them with, so a new
// parameter cannot go undocumented (the Record types below demand it).
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '#shared/http/idempotency-key.ts';
import { CURSOR_FORMAT } from '#shared/http/pagination.ts';
import { INT64_MAX, PAGE_SIZE } from '#shared/schemas.ts';
import type { GetPetPath, ListPetsQuery } from '#shared/schemas.ts';
import { schemaRef } from '#scripts/openapi/objects.ts';
import type { Json } from '#scripts/openapi/objects.ts';

const PLAIN_DECIMAL = 'a plain decimal integer (no sign, leading zeros or spaces)';

export const QUERY_PARAMETERS: Record<keyof typeof ListPetsQuery.shape, Json> = {
  limit: {
    description: `Maximum number of animals returned, ${PLAIN_DECIMAL}.`,
    schema: { type: 'integer', minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default },
  },
  status: { description: 'Only animals with this status.', schema: schemaRef('PetStatus') },
  cursor: {
    description:
      'Where the page starts: copy it from the previous page\'s `Link: rel="next"` header. Opaque. It ' +
      'never expires and stays valid across deployments, with any `limit` but only the same `status`. ' +
      'Any other cursor, an empty one included, is a 400.',
    schema: { type: 'string', pattern: CURSOR_FORMAT.source },
  },
};

export const PATH_PARAMETERS: Record<keyof typeof GetPetPath.shape, Json> = {
  petId: {
    description: `The animal's id, ${PLAIN_DECIMAL}. Not a positive int64: 400.`,
    schema: { type: 'integer', format: 'int64', minimum: 1, maximum: INT64_MAX },
  },
};

export const parameterList = (location: 'query' | 'path', parameters: Record<string, Json>) =>
  Object.entries(parameters).map(([name, parameter]) => ({
    name,
    in: location,
    ...(location === 'path' && { required: true }),
    ...parameter,
  }));

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  description:
    'Makes retries safe: the same key (per API key) with the same body within 24 hours returns the ' +
    'first 201 again, with `Idempotent-Replayed: true`, and creates nothing. With another body: 422. ' +
    'While the first request still runs: 409. A request answered with a 4xx does not use up its key. ' +
    '1 to 255 visible ASCII characters, given once.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

export const IF_NONE_MATCH_PARAMETER = {
  name: 'If-None-Match',
  in: 'header',
  description:
    'The `ETag` of an answer kept, or a list of them, or `*`: when one matches (weakly), the answer is ' +
    '`304` with no body. A field that does not parse is ignored; of one sent on several lines, the last counts.',
  schema: { type: 'string' },
};
