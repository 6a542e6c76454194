// The document itself: what holds for every operation (authentication, errors, limits) and the
// parts the other modules build, in the order the committed openapi.json has them.
import { stringifyJson } from '#shared/json.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { AUTHORIZER, BASE_PATH } from '#shared/http/routes.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { componentSchemas } from '#scripts/openapi/component-schemas.ts';
import { errorCatalogueTable } from '#scripts/openapi/error-responses.ts';
import type { Json } from '#scripts/openapi/objects.ts';
import { responseComponents } from '#scripts/openapi/operation-responses.ts';
import { paths } from '#scripts/openapi/operations.ts';
import { HEADER_COMPONENTS } from '#scripts/openapi/response-headers.ts';

/** The longest any deployed stage caches the authorizer's answer for a key. */
const AUTHORIZER_CACHE_SECONDS = Math.max(
  ...Object.values(STAGE_SETTINGS).map((settings) => settings.authorizerCacheSeconds),
);

const API_KEY_DESCRIPTION =
  `An API key sent as \`${AUTHORIZER.header}: Bearer <key>\`. A \`full\` key may call every operation; ` +
  'a `read-only` key only GET (any other method: 403 `forbidden`). A key with an expiry is refused from ' +
  'then on like an unknown one (401). A deployed stage caches the answer for a key up to ' +
  `${AUTHORIZER_CACHE_SECONDS} s, so a revoked or expired key can pass for that long after.`;

const API_DESCRIPTION = `
The pet store catalogue: list animals, filter them by status, add one, fetch one.

**Authentication.** Every operation needs an API key as a bearer token:
\`Authorization: Bearer <key>\` (the scheme in any case, the key exactly as issued).

**Scopes and expiry.** The operator issues each key with a scope: \`full\` (every operation, the
default) or \`read-only\` (GET only). A read-only key's request with any other method, on any path,
is answered \`403\` \`forbidden\` with a message that says the key is read-only, and changes
nothing; its GETs get what any key's do. A key may also carry an expiry: from then on it is refused
exactly like an unknown key (\`401\`). A rotation issues a new key and lets the old one work for an
overlap. In a deployed stage API Gateway caches the authorizer's answer for a key up to ${AUTHORIZER_CACHE_SECONDS} s, so a
revoked or expired key can still pass for up to ${AUTHORIZER_CACHE_SECONDS} s after; the local servers (\`npm start\`,
\`npm run dev\`) refuse it at once.

**Errors.** Every non-2xx response, API Gateway's own included, is \`application/json\` with an
Error object whose \`status\` equals the HTTP status. The codes:

${errorCatalogueTable()}

When several apply, the first of these wins: 401 (on every path, known or not), then a read-only
key's 403, then 404 or 405, then 413, then 415, then 400. In production the web application
firewall comes before all of them: its 403, and its 400 for a list parameter given twice, are
answered before the API key is checked.
\`User-Agent\` is optional: no request is refused for lacking one.

**Requests no operation describes.** Any other path is answered \`404\` (\`NotFound\`); a known path
asked with another method \`405\` (\`MethodNotAllowed\`, with an \`Allow\` header). Both after 401.

**Numbers.** \`categoryId\` is an int64 kept exactly: values above 2^53 come back with the same
digits, as JSON numbers. Animal ids stay below 2^53 so every JSON client reads them exactly.

**Limits.** Request bodies: at most ${MAX_BODY_BYTES / 1024} KiB. Throttling per method and per key
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
      responses: responseComponents(),
      headers: HEADER_COMPONENTS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: API_KEY_DESCRIPTION,
        },
      },
    },
  };
}

/** Two-space JSON whose bigints (INT64_MAX) are written with their exact digits. */
export function renderOpenApiJson(document: Json): string {
  return `${stringifyJson(document, 2)}\n`;
}
