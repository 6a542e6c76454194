// The edges of HTTP/1.1 that Node's server leaves to its user, each answered with the API's Error
// object rather than Node's bare answer or a closed socket: requests Node cannot parse or that
// arrive too slowly, CONNECT, headers that must come once (Host, RFC 9112 section 3.2, and those a
// proxy in front could read differently), and absolute-form targets (section 3.2.2).
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '#shared/api-error.ts';
import { sentOnce } from '#shared/http/header-value.ts';
import { errorResponse } from '#shared/http/json-response.ts';

/** The target and headers the gateway is given: origin-form, with the authority a client named as Host. */
export type RoutedRequest = { target: string; headers: [string, string][] };

/** RFC 3986's host (an IP literal, or a reg-name, possibly empty) and an optional port. */
const AUTHORITY = /^(?:\[[\da-f:.]+\]|(?:%[\da-f]{2}|[\w.~!$&'()*+,;=-])*)(?::\d*)?$/i;
/** scheme://authority, then the path and query; a request target has no fragment. */
const ABSOLUTE_FORM = /^([a-z][a-z\d+.-]*):\/\/([^/?#]*)([^#]*)$/i;

const invalid = (message: string) => new ApiError('validation_error', message);

/**
 * A whole answer written on the socket, for a request that has no ServerResponse (Node refused
 * it, or handed its socket over). Nothing more can be read on such a connection, so it closes.
 */
function answerOnSocket(socket: Duplex, error: ApiError) {
  if (!socket.writable) return;
  const { statusCode, headers, body } = errorResponse(error);
  const head = Object.entries({ ...headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n${head}\r\n\r\n${body}`);
}

/**
 * How long a client may take to send the URL and headers, and the whole request, before a 408.
 * API Gateway does not publish its own; these are of the order of its 29 s integration timeout,
 * so that a client too slow for the deployed API is too slow here as well. The 408 carries
 * validation_error, since a request that did not arrive is not a valid one: a new code would
 * break v1's frozen Error.code enum for an answer only the local server gives.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

/** Headers a proxy in front could read differently from us (first value or last) when sent twice. */
const SINGLE_VALUE_HEADERS = ['Host', 'Authorization', 'Content-Type', 'Content-Length'];

export type RequestTimeouts = { headersTimeoutMs: number; requestTimeoutMs: number };

/**
 * Node refuses a request it cannot parse (bad method, URL or headers), or one that did not arrive
 * within the server's `timeouts`, before any handler runs.
 */
export function answerUnparsableRequest(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  { headersTimeoutMs, requestTimeoutMs }: RequestTimeouts,
) {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const message = `request: not received in time: the headers are due within ${headersTimeoutMs / 1000} s, the whole request within ${requestTimeoutMs / 1000} s`;
    return answerOnSocket(socket, new ApiError('validation_error', message, { status: 408 }));
  }
  if (error.code === 'HPE_UNEXPECTED_CONTENT_LENGTH')
    return answerOnSocket(socket, sentOnce('Content-Length'));
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'request: the URL and headers are larger than 16 KiB'
      : 'request: is not a valid HTTP/1.1 request (method, URL or headers)';
  answerOnSocket(socket, invalid(message));
}

/**
 * CONNECT asks for a tunnel, which Node hands over as a bare socket (and destroys when no one
 * takes it). It is answered 400 validation_error, as a method Node cannot parse is: 405 would
 * claim a resource whose Allow header lists the methods it offers, but a CONNECT target is a
 * host and port, not a path of this API; and 501 is not in the catalogue. The connection closes,
 * since what a client sends after a CONNECT is meant for the tunnel, not for this server.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex) {
  // The socket is no longer Node's: an error on it (the client gone) must not crash the server.
  socket.on('error', () => socket.destroy());
  answerOnSocket(socket, invalid('request: CONNECT is not served: this server is an API, not a proxy'));
}

/** HTTP/1.1 (and any later version Node's parser lets through) requires a Host header; 1.0 does not. */
const requiresHost = ({ httpVersionMajor: major, httpVersionMinor: minor }: IncomingMessage) =>
  major > 1 || (major === 1 && minor >= 1);

const isHost = ([name]: [string, string]) => name.toLowerCase() === 'host';

/**
 * A 400 for a header of SINGLE_VALUE_HEADERS sent more than once; the Host rules of RFC 9112
 * section 3.2 (a 400 for an HTTP/1.1 request without Host or with an invalid one), which Node
 * checks only in part and answers without a body; and an absolute-form target (section 3.2.2)
 * served as its origin-form, its authority replacing the Host header, whose value is then ignored.
 */
export function routedRequest(request: IncomingMessage): RoutedRequest | ApiError {
  const headers = pairs(request.rawHeaders);
  for (const single of SINGLE_VALUE_HEADERS) {
    const times = headers.filter(([name]) => name.toLowerCase() === single.toLowerCase()).length;
    if (times > 1) return sentOnce(single, times);
  }
  const hosts = headers.filter(isHost);
  if (hosts.length === 0 && requiresHost(request)) return invalid('Host: is required in an HTTP/1.1 request');

  const target = request.url ?? '/';
  if (target.startsWith('/') || target === '*') {
    const host = hosts[0]?.[1];
    if (host !== undefined && !AUTHORITY.test(host))
      return invalid('Host: must be a host name or address, with an optional port');
    return { target, headers };
  }

  const [, scheme = '', authority = '', pathAndQuery = ''] = ABSOLUTE_FORM.exec(target) ?? [];
  // An http(s) URI must name a host, and RFC 9110 section 4.2.4 has user info treated as an error.
  if (!/^https?$/i.test(scheme) || authority === '' || authority.includes('@') || !AUTHORITY.test(authority))
    return invalid('request: an absolute target must be an http or https URI with a host, without user info');
  // An empty path is "/" (RFC 9112 section 3.2.1).
  const origin = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  return { target: origin, headers: [...headers.filter((header) => !isHost(header)), ['Host', authority]] };
}

function pairs(rawHeaders: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    result.push([rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '']);
  return result;
}
