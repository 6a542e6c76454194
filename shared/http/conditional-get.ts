// Conditional GETs (RFC 9110 sections 8.8.3 and 13.1.2): every 200 of a GET carries a weak ETag of
// what it says, the body and its next-page link, and an If-None-Match that matches it weakly gets a
// 304 with no body. Weak, so that a gzipped answer keeps the tag of the plain one.
import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { headerValue } from '#shared/http/header-value.ts';

/**
 * A private cache (the client's) may keep a successful GET and must revalidate it before each use: a
 * list changes with every create. `private` keeps shared caches from reusing an answer to a keyed request.
 */
export const REVALIDATE = 'private, no-cache';

/** 16 bytes of SHA-256 in base64url: no two answers a client keeps will share one. */
function weakEtag({ body, headers = {} }: Pick<APIGatewayProxyResult, 'body' | 'headers'>): string {
  const digest = createHash('sha256')
    .update(String(headers.Link ?? ''))
    .update('\n')
    .update(body);
  return `W/"${digest.digest().subarray(0, 16).toString('base64url')}"`;
}

/** `*`, an entity-tag (weak or strong) or nothing, then a comma or the end: one element of the list. */
const MEMBER = /\s*(?:(\*)|(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?\s*(?:,|$)/y;

/**
 * The tags an If-None-Match lists (`*` as itself). Of a field sent on several lines, the last line
 * counts: it alone is in the stage cache's key, so a 304 depends on nothing else. A field that does
 * not parse is ignored, as if not sent: the client gets the whole answer, never an error.
 */
function ifNoneMatchTags(event: Pick<APIGatewayProxyEvent, 'headers'>) {
  const value = headerValue(event, 'If-None-Match') ?? '';
  const tags: string[] = [];
  MEMBER.lastIndex = 0;
  while (MEMBER.lastIndex < value.length) {
    const member = MEMBER.exec(value);
    if (!member) return [];
    if (member[1] !== undefined) tags.push(member[1]);
    else if (member[2] !== undefined) tags.push(`"${member[2]}"`);
  }
  return tags;
}

/** Weak comparison: `W/"x"` and `"x"` match each other. */
const opaque = (tag: string) => tag.replace(/^W\//, '');

/** Middy middleware for a GET: a 200 gets its ETag and Cache-Control, and becomes a 304 on a match. */
export function conditionalGet(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    after: function answerConditionally({ event, response }) {
      if (response?.statusCode !== 200) return;
      const etag = weakEtag(response);
      // Vary: API Gateway gzips an answer for a client that accepts it (lib/api/petstore-api.ts).
      const validators = { ETag: etag, 'Cache-Control': REVALIDATE, Vary: 'Accept-Encoding' };
      response.headers = { ...response.headers, ...validators };
      const tags = ifNoneMatchTags(event);
      if (!tags.includes('*') && !tags.some((tag) => opaque(tag) === opaque(etag))) return;
      // The 304 keeps every field of the 200 (its validators, caching and links) but the body's type.
      const { 'Content-Type': _type, ...headers } = response.headers;
      Object.assign(response, { statusCode: 304, headers, body: '' });
    },
  };
}
