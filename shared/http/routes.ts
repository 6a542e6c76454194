// The one definition of the API's surface: stage, routes (from the function manifests) and authorizer
// settings, read from here by everything that needs them, so that nothing can drift apart.
import { FUNCTION_MANIFESTS, FUNCTION_NAMES } from '#functions/manifests.ts';
import type { FunctionManifest, FunctionName } from '#functions/manifests.ts';

export const STAGE_NAME = 'v1';
export const BASE_PATH = `/${STAGE_NAME}`;

type Manifests = typeof FUNCTION_MANIFESTS;
/** The functions that serve a route: every one but the authorizer. */
export type OperationId = {
  [Name in FunctionName]: Manifests[Name] extends { route: object } ? Name : never;
}[FunctionName];
export type Route = { [Name in OperationId]: { operationId: Name } & Manifests[Name]['route'] }[OperationId];

/** Each function's route (functions/manifests.ts), in the manifests' order. */
export const ROUTES: readonly Route[] = /* @__PURE__ */ FUNCTION_NAMES.flatMap((name) => {
  const manifest: FunctionManifest = FUNCTION_MANIFESTS[name];
  return manifest.route ? [{ operationId: name, ...manifest.route } as Route] : [];
});

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

export const petLocation = (id: number) => `${BASE_PATH}/pets/${id}`;
