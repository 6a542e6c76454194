// The one definition of the API's surface: stage, routes and authorizer settings, read from here by
// everything that needs them (the functions that serve each route: functions/manifests.ts), so that
// nothing can drift apart. Plain data: this layer imports nothing above it.

export const STAGE_NAME = 'v1';
export const BASE_PATH = `/${STAGE_NAME}`;

/** Each operation's method and path, by operationId: the name of the function that serves it. */
const ROUTE_TABLE = {
  listPets: { method: 'GET', path: '/pets' },
  createPet: { method: 'POST', path: '/pets' },
  getPet: { method: 'GET', path: '/pets/{petId}' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string }>;

export type OperationId = keyof typeof ROUTE_TABLE;
export type Route = { [Id in OperationId]: { operationId: Id } & (typeof ROUTE_TABLE)[Id] }[OperationId];

/** Every route, in the table's order. */
export const ROUTES: readonly Route[] = /* @__PURE__ */ Object.entries(ROUTE_TABLE).map(
  ([operationId, route]) => ({ operationId, ...route }) as Route,
);

/** The methods each known path offers, for 405 answers and their Allow header. */
export const ALLOWED_METHODS: Record<string, string[]> = /* @__PURE__ */ Object.fromEntries(
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
  // How long API Gateway caches the authorizer's answer to a key is a stage setting, not the API's:
  // `authorizerCacheSeconds` in lib/stage-settings.ts.
} as const;

/**
 * How old a page of listPets may be: production answers `GET /pets` from API Gateway's stage cache
 * (`listCache` in lib/stage-settings.ts, whose TTL may not exceed this), so a new pet may take this
 * long to appear in a list. The contract states it (docs/api.md, the OpenAPI description).
 */
export const LIST_PAGE_MAX_AGE_SECONDS = 5;

/**
 * The REST API's minimumCompressionSize: API Gateway gzips an answer of this many bytes or more for a
 * client that accepts it. Below it, a body fits in one TCP segment with room to spare, and gzip's own
 * header would eat much of what it saves (the page sizes: docs/performance.md, "Bytes on the wire").
 */
export const MINIMUM_COMPRESSION_BYTES = 1_024;

export const petLocation = (id: number) => `${BASE_PATH}/pets/${id}`;
