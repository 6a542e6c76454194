// The client's conditional GETs: a GET of a URL whose answer is kept goes out with its ETag in
// If-None-Match, and the 304 that says it is unchanged comes back as that 200 again, before
// openapi-fetch, which would take a 304 for an error. A caller's own If-None-Match is left alone.
import type { CachedAnswer, EtagCache } from './etag-cache.ts';
import type { Fetch } from './retrying-fetch.ts';

const IF_NONE_MATCH = 'If-None-Match';

/**
 * What a 304 does not update (RFC 9111, 3.2): the kept body's length and encoding are its own. The
 * body is kept as fetch decoded it, so the encoding and length of a gzipped answer are not kept either.
 */
const BODY_FIELDS = ['Content-Length', 'Content-Encoding', 'Transfer-Encoding'];

const isNoStore = (response: Response) =>
  (response.headers.get('Cache-Control') ?? '')
    .split(',')
    .some((directive) => directive.split('=')[0]?.trim().toLowerCase() === 'no-store');

function withoutBodyFields(headers: Headers): Headers {
  const kept = new Headers(headers);
  for (const name of BODY_FIELDS) kept.delete(name);
  return kept;
}

function withIfNoneMatch(request: Request, etag: string): Request {
  const headers = new Headers(request.headers);
  headers.set(IF_NONE_MATCH, etag);
  return new Request(request, { headers });
}

/** The kept 200, its header fields updated with the 304's, as a cache freshens a stored answer. */
function revalidated(answer: CachedAnswer, notModified: Response): CachedAnswer {
  const headers = new Headers(answer.headers);
  withoutBodyFields(notModified.headers).forEach((value, name) => headers.set(name, value));
  return { etag: headers.get('ETag') ?? answer.etag, headers, body: answer.body };
}

/** `send`, with each GET revalidated against the answer `cache` keeps for its URL. */
export function revalidatingFetch(send: Fetch, cache: EtagCache): Fetch {
  return async (request) => {
    if (request.method !== 'GET' || request.headers.has(IF_NONE_MATCH)) return send(request);
    const url = request.url;
    const kept = cache.get(url);
    const response = await send(kept ? withIfNoneMatch(request, kept.etag) : request);
    if (kept && response.status === 304) {
      const answer = revalidated(kept, response);
      cache.set(url, answer);
      return new Response(answer.body, { status: 200, statusText: 'OK', headers: answer.headers });
    }
    if (response.status !== 200) return response;
    const etag = response.headers.get('ETag');
    if (etag === null || isNoStore(response)) {
      cache.delete(url);
      return response;
    }
    const body = await response.clone().arrayBuffer();
    cache.set(url, { etag, headers: withoutBodyFields(response.headers), body });
    return response;
  };
}
