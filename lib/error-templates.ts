// The Error object and headers of an answer API Gateway gives by itself (a gateway response or a
// mock integration), in the forms API Gateway stores them: the body as a mapping template, which
// is plain text to API Gateway, and each header as a static value in single quotes.
import type { ErrorBody } from '#shared/errors.ts';

export const JSON_CONTENT_TYPE = 'application/json';

/** A template that renders to exactly this Error object. */
export function errorBodyTemplate(body: ErrorBody): Record<string, string> {
  const json = JSON.stringify(body);
  // Templates are Velocity: '$' and '#' would start a reference or a directive.
  if (/[$#]/.test(json)) throw new Error(`An Error body for API Gateway must not contain $ or #: ${json}`);
  return { [JSON_CONTENT_TYPE]: json };
}

/** Header values as API Gateway static values: 'value'. */
export function staticHeaderValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));
}
