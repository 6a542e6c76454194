// Response headers. Those of several responses (getPet's deprecation, the validators of a GET, the
// key's limits, the compression) are components, referred to from each, so each is described once.
import { RETRY_AFTER_SECONDS } from '#shared/api-error.ts';
import { REVALIDATE } from '#shared/http/conditional-get.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
import { MINIMUM_COMPRESSION_BYTES } from '#shared/http/routes.ts';
import type { Json } from '#scripts/openapi/objects.ts';

export const header = (description: string, schema: Json, required = true) => ({
  description,
  required,
  schema,
});

export const RETRY_AFTER = (required: boolean) =>
  header(
    'Seconds to wait before retrying (the delay-seconds form of RFC 9110).',
    { type: 'integer', minimum: 0, examples: [RETRY_AFTER_SECONDS] },
    required,
  );

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

/** A weak entity-tag: `W/"` and 22 base64url characters. */
const ETAG_PATTERN = '^W/"[A-Za-z0-9_-]{22}"$';

/** components.headers, named so that `Link` says what it links to. */
export const HEADER_COMPONENTS = {
  Deprecation: DEPRECATION_HEADERS.Deprecation,
  Sunset: DEPRECATION_HEADERS.Sunset,
  SuccessorVersionLink: DEPRECATION_HEADERS.Link,
  ETag: header(
    'A weak validator of this answer (RFC 9110, 8.8.3): send it back in `If-None-Match` to get a `304` ' +
      'while the answer is unchanged. A gzipped answer has the same tag.',
    { type: 'string', pattern: ETAG_PATTERN },
  ),
  CacheControl: header(
    'A private cache may keep the answer and must revalidate it before each use; shared caches must not keep it.',
    { type: 'string', const: REVALIDATE },
  ),
  RateLimitPolicy: header(
    "The API key's limits on the stages that limit keys, as draft-ietf-httpapi-ratelimit-headers-11 " +
      'spells them: `rate` (requests a second, with the bucket size as `petstore-burst`) and `daily`. ' +
      'No `RateLimit` field is sent: API Gateway does not tell the function what is left.',
    { type: 'string', examples: ['"rate";q=5;w=1;petstore-burst=10, "daily";q=10000;w=86400'] },
    false,
  ),
  ContentEncoding: header(
    `\`gzip\` (or \`deflate\`) when the request's \`Accept-Encoding\` names it and the body is ` +
      `${MINIMUM_COMPRESSION_BYTES} bytes or more.`,
    { type: 'string', enum: ['gzip', 'deflate'] },
    false,
  ),
};

const ref = (name: keyof typeof HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

export const DEPRECATION_HEADER_REFS = {
  Deprecation: ref('Deprecation'),
  Sunset: ref('Sunset'),
  Link: ref('SuccessorVersionLink'),
};

/** The headers of every answer of a function: the key's limits and the compression. */
export const ANSWER_HEADER_REFS = {
  'RateLimit-Policy': ref('RateLimitPolicy'),
  'Content-Encoding': ref('ContentEncoding'),
};

/** The headers of a GET's 200 and 304 besides its own. */
export const VALIDATOR_HEADER_REFS = { ETag: ref('ETag'), 'Cache-Control': ref('CacheControl') };

/** A GET's 304, with the headers its 200 would carry. */
export const notModified = (headers: Json) => ({
  description:
    'The answer is unchanged since the `ETag` sent in `If-None-Match`: use the copy kept. No body. ' +
    'Only a request with `If-None-Match` gets it.',
  headers: { ...VALIDATOR_HEADER_REFS, 'RateLimit-Policy': ref('RateLimitPolicy'), ...headers },
});
