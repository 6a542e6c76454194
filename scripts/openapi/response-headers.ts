// Response headers. getPet's deprecation headers are components, referred to from each of its
// function's responses, so the three are described once.
import { RETRY_AFTER_SECONDS } from '#shared/api-error.ts';
import { GET_PET_DEPRECATION_HEADERS } from '#shared/http/deprecation.ts';
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

/** components.headers, named so that `Link` says what it links to. */
export const HEADER_COMPONENTS = {
  Deprecation: DEPRECATION_HEADERS.Deprecation,
  Sunset: DEPRECATION_HEADERS.Sunset,
  SuccessorVersionLink: DEPRECATION_HEADERS.Link,
};

export const DEPRECATION_HEADER_REFS = {
  Deprecation: { $ref: '#/components/headers/Deprecation' },
  Sunset: { $ref: '#/components/headers/Sunset' },
  Link: { $ref: '#/components/headers/SuccessorVersionLink' },
};
