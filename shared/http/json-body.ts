// Reads a JSON request body in the contract's order: 413 (over 16 KiB), then 415 (not
// application/json, or content-encoded), then 400 (empty, not UTF-8, not JSON). Replaces
// @middy/http-json-body-parser, which cannot keep int64 values exact (its reviver gets no source text).
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from '#shared/api-error.ts';
import { parseJson } from '#shared/json.ts';
import { headerValues, sentOnce } from '#shared/http/header-value.ts';

/** The contract's request body limit, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** The 413 this middleware answers; a factory so the OpenAPI document's example is this very error. */
export const bodyTooLarge = () =>
  new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** application/json, with any parameters but a charset other than UTF-8; media types ignore case. */
function isJsonMediaType(contentType: string): boolean {
  const [type = '', ...parameters] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=');
    return (
      name.trim().toLowerCase() !== 'charset' || value.trim().replace(/"/g, '').toLowerCase() === 'utf-8'
    );
  });
}

/**
 * The API reads bodies as sent, so the one content coding it accepts is `identity` (no coding).
 * RFC 9110: Content-Encoding is a comma-separated list, repeatable, case-insensitive, whose empty
 * elements count for nothing. A gzip body would otherwise be a 400 "not UTF-8", and a plain body
 * labelled `br` would be stored as if the label were not there.
 */
const IDENTITY = 'identity';

const isIdentityCoding = (contentEncodings: string[]) =>
  contentEncodings
    .flatMap((value) => value.split(','))
    .every((coding) => ['', IDENTITY].includes(coding.trim().toLowerCase()));

/** RFC 9110 (15.5.16): a 415 for a content coding says, in Accept-Encoding, which codings would do. */
const contentEncoded = () =>
  new ApiError(
    'unsupported_media_type',
    'Content-Encoding: the body must be sent as is, without a content coding (only identity is accepted).',
    { headers: { 'Accept-Encoding': IDENTITY } },
  );

function bodyBytes(event: APIGatewayProxyEvent): Buffer {
  if (event.body === null || event.body === undefined) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

function readJsonBody(event: APIGatewayProxyEvent): unknown {
  const bytes = bodyBytes(event);
  if (bytes.length > MAX_BODY_BYTES) throw bodyTooLarge();
  const contentTypes = headerValues(event, 'content-type');
  if (contentTypes.length > 1) throw sentOnce('Content-Type', contentTypes.length);
  const [contentType] = contentTypes;
  if (contentType === undefined ? bytes.length > 0 : !isJsonMediaType(contentType)) {
    throw new ApiError('unsupported_media_type');
  }
  if (!isIdentityCoding(headerValues(event, 'content-encoding'))) throw contentEncoded();
  if (bytes.length === 0) throw new ApiError('validation_error', 'body: is required (a JSON object)');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError('validation_error', 'body: is not valid UTF-8');
  }
  try {
    return parseJson(text);
  } catch (error) {
    // Valid JSON nested thousands deep exhausts the parser's stack.
    const problem = error instanceof RangeError ? 'is nested too deeply' : 'is not valid JSON';
    throw new ApiError('validation_error', `body: ${problem}`);
  }
}

export type JsonBodyEvent = APIGatewayProxyEvent & { jsonBody?: unknown };

/** Middleware form: the parsed body is left on the event as `jsonBody`. */
export function jsonBody(): MiddlewareObj<JsonBodyEvent> {
  return {
    before: function parseJsonBody(request) {
      request.event.jsonBody = readJsonBody(request.event);
    },
  };
}
