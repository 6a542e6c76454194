// The interactive API reference as one self-contained HTML page: Swagger UI from its npm package
// (swagger-ui-dist), its CSS, its script, the OpenAPI document and the start-up script all inlined.
// Nothing is fetched from anywhere, so the page works offline, from a file and under a policy that
// allows no remote source.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stringifyJson } from '#shared/json.ts';

/** Read with parseJson (#shared/json.ts): integers beyond 2^53 are bigints, and keep their digits. */
export type OpenApiDocument = {
  info?: { title?: string; version?: string; [field: string]: unknown };
  [field: string]: unknown;
};

/** The document's security scheme: the one a pre-filled key authorizes. */
const SECURITY_SCHEME = 'bearerAuth';

export type ApiReferencePage = {
  document: OpenApiDocument;
  /** Pre-filled into the Authorize dialog; without it the page holds no key. */
  apiKey?: string;
};

const require = createRequire(import.meta.url);
let assets: { css: string; script: string; exactJson: string } | undefined;

/** Read once per process: they change only with the package, and with this folder's page script. */
function pageAssets() {
  // Without its map the comment would make the developer tools ask for one that is not there.
  const read = (file: string) =>
    readFileSync(require.resolve(`swagger-ui-dist/${file}`), 'utf8').replace(
      /\s*\/[/*]# sourceMappingURL=\S*/g,
      '',
    );
  assets ??= {
    css: read('swagger-ui.css'),
    script: read('swagger-ui-bundle.js'),
    exactJson: readFileSync(new URL('api-reference-exact-json.js', import.meta.url), 'utf8'),
  };
  return assets;
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
const scriptJson = (value: unknown) => stringifyJson(value).replace(/</g, '\\u003c');

/**
 * Each integer of the document beyond 2^53 (a bigint) by the text JavaScript prints for it once
 * rounded, with its digits; a rounded text that two of them share is left out, as neither is sure.
 */
export function writtenIntegers(document: unknown): [rounded: string, digits: string][] {
  const written = new Map<string, string | null>();
  const visit = (value: unknown) => {
    if (typeof value === 'bigint' && !Number.isSafeInteger(Number(value))) {
      const [rounded, digits] = [String(Number(value)), String(value)];
      const seen = written.get(rounded);
      written.set(rounded, seen === undefined || seen === digits ? digits : null);
    } else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(document);
  return [...written].filter((entry): entry is [string, string] => entry[1] !== null);
}

/**
 * Swagger UI's markdown tables (the error codes of the document) pad their cells at the top only:
 * the longest code would touch the column after it.
 */
const PAGE_STYLE =
  '.swagger-ui .renderedMarkdown table :is(th, td):not(:last-child) { padding-right: 1.5em; }';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The start-up module: the plugin that shows integers beyond 2^53 with their digits, the document
 * inline, no validator badge (it calls validator.swagger.io).
 */
function startUpScript({ document, apiKey }: ApiReferencePage, exactJson: string) {
  const written = writtenIntegers(document);
  return `${exactJson}
const reference = ${scriptJson({ document, apiKey, scheme: SECURITY_SCHEME, written })};
window.ui = SwaggerUIBundle({
  spec: reference.document,
  plugins: [exactJsonPlugin(reference.written)],
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
  const { css, script, exactJson } = pageAssets();
  const { title = 'API', version = '' } = page.document.info ?? {};
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} ${version}`.trim())}: API reference</title>
<link rel="icon" href="data:,">
<style>${inlineStyle(css)}
${PAGE_STYLE}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script>${inlineScript(script)}</script>
<script type="module">${inlineScript(startUpScript(page, exactJson))}</script>
</body>
</html>
`;
}
