// The one definition of the API's surface: stage, routes and authorizer settings, read from here by
// everything that needs them, so that nothing can drift apart.

export const STAGE_NAME = 'v1';
export const BASE_PATH = `/${STAGE_NAME}`;

export const ROUTES = [
  { operationId: 'listPets', method: 'GET', path: '/pets' },
  { operationId: 'createPet', method: 'POST', path: '/pets' },
  { operationId: 'getPet', method: 'GET', path: '/pets/{petId}' },
] as const;

export type Route = (typeof ROUTES)[number];
export type OperationId = Route['operationId'];

/** The methods each known path offers, for 405 answers and their Allow header. */
export const ALLOWED_METHODS: Record<string, string[]> = Object.fromEntries(
  [...new Set(ROUTES.map((route) => route.path))].map((path) => [
    path,
    ROUTES.filter((route) => route.path === path).map((route) => route.method),
  ]),
);

export const AUTHORIZER = {
  header: 'Authorization',
  /**
   * API Gateway answers 401 itself, without calling the authorizer, when the header does not
   * match; the authorizer takes the key from the same pattern's group.
   */
  validationRegex: '^[Bb][Ee][Aa][Rr][Ee][Rr] +(\\S+) *$',
  /** A revoked key keeps working through API Gateway for at most this long (its policy cache). */
  resultsCacheTtlSeconds: 300,
} as const;

/**
 * How old a page of listPets may be: production answers `GET /pets` from API Gateway's stage cache
 * (`listCache` in lib/stage-settings.ts, whose TTL may not exceed this), so a new pet may take this
 * long to appear in a list. The contract states it (docs/api.md, the OpenAPI description).
 */
export const LIST_PAGE_MAX_AGE_SECONDS = 5;

export const petLocation = (id: number) => `${BASE_PATH}/pets/${id}`;
