// The document itself: what holds for every operation (authentication, errors) and the
// parts the other modules build, in the order the committed openapi.json has them.
import { stringifyJson } from '#shared/json.ts';
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
  `An API key sent as \`${AUTHORIZER.header}: Bearer <key>\`. Scopes, expiry and revocation: see the ` +
  "API's description.";

const API_DESCRIPTION = `
The pet store catalogue: list animals, filter them by status, add one, fetch one.

**Authentication.** Every operation needs an API key: \`Authorization: Bearer <key>\`. The scheme
may be in any case; the key must be exactly as issued. A \`full\` key may call every operation. A
\`read-only\` key may call GET only: any other method is a \`403\` that changes nothing. A revoked
or expired key is a \`401\`, like an unknown key.
A deployed stage caches the answer for a key up to ${AUTHORIZER_CACHE_SECONDS} s, so a revoked or
expired key can pass for that long; the local servers refuse it at once. A rotation issues a new key, and the old one works on for an overlap.

**Errors.** Every non-2xx response, API Gateway's own included, is \`application/json\` with an
Error object whose \`status\` equals the HTTP status:

${errorCatalogueTable()}

When several apply, the first of these wins: 401 (on any path), a read-only key's 403, 404 or 405,
413, 415, 400. In production the web application firewall answers before all of them, its 400 for
a repeated list parameter included.

**Requests no operation describes.** Another path is a \`404\` (\`NotFound\`). A known path with
another method is a \`405\` (\`MethodNotAllowed\`, with an \`Allow\` header).
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
