// Swagger UI reads JSON with JSON.parse, which rounds integers beyond 2^53: an int64 categoryId in a
// try-it answer, an int64 bound or example of the document. The page's plugin shows them with the
// digits they were written with. A module script of the page, inlined as it is (JavaScript, so that the
// page is the same whichever tool loaded the server): it imports nothing and runs in any browser.

/** JSON text laid out as JSON.stringify(value, null, 2) lays it out, but every token as it was written. */
export function prettyJsonAsWritten(text) {
  JSON.parse(text); // Throws on text that is not JSON, which the tokens alone would not show.
  const indent = (level) => `\n${'  '.repeat(level)}`;
  let pretty = '';
  let depth = 0;
  let opened = false;
  for (const token of text.match(/"(?:[^"\\]|\\.)*"|[^\s"{}[\]:,]+|\S/g) ?? []) {
    const closing = token === '}' || token === ']';
    if (opened && !closing) pretty += indent((depth += 1));
    else if (closing && !opened) pretty += indent((depth -= 1));
    opened = token === '{' || token === '[';
    pretty += token === ',' ? `,${indent(depth)}` : token === ':' ? ': ' : token;
  }
  return pretty;
}

/** Text showing numbers of the document, each rounded integer back as written; quoted strings as they are. */
export function withWrittenIntegers(text, written) {
  return text.replace(
    /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi,
    (token) => written.get(token) ?? token,
  );
}

/** A response's JSON body laid out as received, or undefined where Swagger UI's `ResponseBody` shows it. */
function exactJsonBody({ content, contentType, headers }) {
  const download = Object.entries(headers ?? {}).some(
    ([name, value]) =>
      /^content-(disposition|description)$/i.test(name) && /attachment|file transfer/i.test(`${value}`),
  );
  if (typeof content !== 'string' || !/json/i.test(`${contentType}`) || download) return undefined;
  try {
    return prettyJsonAsWritten(content);
  } catch {
    return undefined; // Swagger UI says it cannot parse it and shows the raw text.
  }
}

/**
 * The plugin: try-it answers as received; schema bounds and examples with the digits of the document
 * (`written`: [rounded, digits] for each integer of it beyond 2^53, rounded as JavaScript prints it).
 */
export function exactJsonPlugin(written) {
  const digits = new Map(written);
  const exact = (text) => (typeof text === 'string' ? withWrittenIntegers(text, digits) : text);
  const responseBody = (Original, { React, getComponent }) =>
    function ExactResponseBody(props) {
      const body = exactJsonBody(props);
      if (body === undefined) return React.createElement(Original, props);
      const fileName = `response_${Date.now()}.json`;
      const code = { language: 'json', downloadable: true, canCopy: true, fileName };
      const highlighted = React.createElement(getComponent('HighlightCode', true), code, body);
      return React.createElement('div', null, React.createElement('h5', null, 'Response body'), highlighted);
    };
  const constraint = (Original, { React }) =>
    function ExactConstraint(props) {
      const shown = props.constraint;
      const numeric = shown?.scope === 'number';
      return React.createElement(
        Original,
        numeric ? { ...props, constraint: { ...shown, value: exact(shown.value) } } : props,
      );
    };
  return {
    // Every example and sample of a body (the try-it editor's first text included) comes from this.
    afterLoad() {
      const { getSampleSchema } = this.fn;
      if (typeof getSampleSchema !== 'function') return;
      this.fn.getSampleSchema = (...args) => exact(getSampleSchema(...args));
    },
    wrapComponents: { responseBody, JSONSchema202012KeywordConstraint: constraint },
  };
}
