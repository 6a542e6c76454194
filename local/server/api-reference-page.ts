// The interactive API reference as one self-contained HTML page: Swagger UI from its npm package
// (swagger-ui-dist), its CSS, its script, the OpenAPI document and the start-up script all inlined.
// Nothing is fetched from anywhere, so the page works offline, from a file and under a policy that
// allows no remote source.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type OpenApiDocument = {
  info?: { title?: string; version?: string; [field: string]: unknown };
  [field: string]: unknown;
};

/** The document's security scheme: the one a pre-filled key authorizes. */
export const SECURITY_SCHEME = 'bearerAuth';

export type ApiReferencePage = {
  document: OpenApiDocument;
  /** Pre-filled into the Authorize dialog; without it the page holds no key. */
  apiKey?: string;
};

const require = createRequire(import.meta.url);
let swaggerUi: { css: string; script: string } | undefined;

/** Read once per process: they change only with the package. */
function swaggerUiAssets() {
  // Without its map the comment would make the developer tools ask for one that is not there.
  const read = (file: string) =>
    readFileSync(require.resolve(`swagger-ui-dist/${file}`), 'utf8').replace(
      /\s*\/[/*]# sourceMappingURL=\S*/g,
      '',
    );
  swaggerUi ??= { css: read('swagger-ui.css'), script: read('swagger-ui-bundle.js') };
  return swaggerUi;
}

/**
 * Script text as the HTML parser must not misread it: `</script` would end the element early and
 * `<!--` opens the state in which a later `</script>` no longer ends it. Both occur in the bundle
 * only inside string and regular expression literals, where these escapes mean the same text.
 */
const inlineScript = (script: string) =>
  script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '\\x3C!--');

/** In a <style> element only `</style` ends it early; in CSS `\/` is the same `/`. */
const inlineStyle = (css: string) => css.replace(/<\/(style)/gi, '<\\/$1');

/** JSON as a script literal: with every `<` escaped no text of the document can end the script. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** The start-up script: the document inline, no validator badge (it calls validator.swagger.io). */
function startUpScript({ document, apiKey }: ApiReferencePage) {
  return `const reference = ${scriptJson({ document, apiKey, scheme: SECURITY_SCHEME })};
window.ui = SwaggerUIBundle({
  spec: reference.document,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  // A link with ?url= or ?configUrl= must not make this page load another document.
  queryConfigEnabled: false,
  onComplete() {
    if (reference.apiKey) window.ui.preauthorizeApiKey(reference.scheme, reference.apiKey);
  },
});`;
}

export function renderApiReference(page: ApiReferencePage): string {
  const { css, script } = swaggerUiAssets();
  const { title = 'API', version = '' } = page.document.info ?? {};
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} ${version}`.trim())}: API reference</title>
<link rel="icon" href="data:,">
<style>${inlineStyle(css)}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script>${inlineScript(script)}</script>
<script>${inlineScript(startUpScript(page))}</script>
</body>
</html>
`;
}
