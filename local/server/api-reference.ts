// The local server's own API reference, outside the stage and without an API key: GET /docs, the
// interactive page, and GET /openapi.json, the document; both point at this server's /v1. Every other
// request goes to the wrapped gateway as it came.
import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '#shared/api-error.ts';
import { errorResponse, ok } from '#shared/http/json-response.ts';
import { parseJson } from '#shared/json.ts';
import type { ApiGateway, GatewayRequest } from '#local/api-gateway/gateway.ts';
import { lastHeader } from '#shared/http/proxy-event.ts';
import { renderApiReference } from '#local/server/api-reference-page.ts';
import type { OpenApiDocument } from '#local/server/api-reference-page.ts';

export type ApiReferenceOptions = {
  /** The key the page pre-fills for a browser on this machine. */
  apiKey: string;
  /**
   * The committed openapi.json by default, read on each request so a regenerated one shows at once;
   * its integers beyond 2^53 as bigints, served and shown with their digits.
   */
  readDocument?: () => Promise<OpenApiDocument>;
  /** For a request without a Host header: this server's URL without /v1 ('' keeps it relative). */
  baseUrl?: string;
};

const DOCUMENT_FILE = new URL('../../openapi.json', import.meta.url);
const readCommittedDocument = async () => parseJson(await readFile(DOCUMENT_FILE, 'utf8')) as OpenApiDocument;

const ALLOW = 'GET, HEAD';

/** What the page needs and no more: its own inline script and style, data: icons, calls to this server. */
const DOCS_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; " +
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function isLoopbackAddress(address: string): boolean {
  const ipv4 = address.replace(/^::ffff:/i, '');
  return address === '::1' || (isIPv4(ipv4) && ipv4.startsWith('127.'));
}

/** The Host header when it names a host and port and nothing else (a user or a path does not round-trip). */
function requestHost({ headers }: GatewayRequest): URL | undefined {
  const host = lastHeader(headers, 'host')?.trim();
  const url = host ? URL.parse(`http://${host}`) : null;
  return url?.href === `http://${url?.host}/` ? url : undefined;
}

/**
 * The key goes only to a browser on this machine that asked for this machine by a loopback name:
 * a server bound to 0.0.0.0 does not hand it to the network, and a page of another site that
 * rebinds its own name to 127.0.0.1 (its Host stays that name) does not read it either.
 */
function mayPrefillKey(request: GatewayRequest, host: URL | undefined) {
  const hostname = host?.hostname;
  const loopbackName =
    !hostname || hostname === 'localhost' || hostname === '[::1]' || isLoopbackAddress(hostname);
  return isLoopbackAddress(request.sourceIp) && loopbackName;
}

export function withApiReference(
  gateway: ApiGateway,
  { apiKey, readDocument = readCommittedDocument, baseUrl = '' }: ApiReferenceOptions,
): ApiGateway {
  /** The document as this server serves it: its one server is this server's /v1. */
  async function servedDocument(host: URL | undefined): Promise<OpenApiDocument> {
    const url = host ? `http://${host.host}/v1` : `${baseUrl}/v1`;
    const document = await readDocument().catch(() => {
      throw new ApiError('internal_error', 'openapi.json cannot be read: npm run openapi writes it.');
    });
    return { ...document, servers: [{ url, description: 'This local server' }] };
  }

  async function answer(request: GatewayRequest, path: string): Promise<APIGatewayProxyResult> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(new ApiError('method_not_allowed', undefined, { headers: { Allow: ALLOW } }));
    }
    const host = requestHost(request);
    const document = await servedDocument(host);
    if (path === '/openapi.json') return ok(document);
    const page = renderApiReference({ document, apiKey: mayPrefillKey(request, host) ? apiKey : undefined });
    // The server leaves the body out of a HEAD answer and keeps its Content-Length.
    return { statusCode: 200, headers: DOCS_HEADERS, body: page };
  }

  return (request) => {
    const path = request.target.split('?')[0];
    if (path !== '/docs' && path !== '/openapi.json') return gateway(request);
    return answer(request, path).catch((error: unknown) => {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    });
  };
}
