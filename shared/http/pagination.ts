// Opaque, tamper-evident cursors bound to their filter: `payload.mac`, where the payload holds the
// filter and the walk's position (the shard to read next, the last id seen), and the mac is an
// HMAC-SHA256 with a secret that outlives deployments. Cursors never expire; the position they carry
// stays meaningful forever.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '#shared/api-error.ts';
import { BASE_PATH } from '#shared/http/routes.ts';
import type { ListPetsQuery } from '#shared/schemas.ts';
import type { PagePosition } from '#shared/store/pet-store.ts';

/**
 * A shorter secret would make cursors forgeable: the composition roots that read one from their
 * settings refuse it (Secrets Manager generates 64 characters).
 */
export const CURSOR_SECRET_MIN_LENGTH = 32;
/** Version 1 carried the last id alone, before pets were sharded; nothing deployed ever issued it. */
const VERSION = '2';
const NO_FILTER = '*';

const filterOf = (query: Pick<ListPetsQuery, 'status'>) => query.status ?? NO_FILTER;
const invalidCursor = () =>
  new ApiError('validation_error', 'cursor: is not a cursor this service issued for this status filter');

export type Cursors = ReturnType<typeof createCursors>;

export function createCursors(secret: string) {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);

  function sealCursor({ shard, afterId }: PagePosition, query: Pick<ListPetsQuery, 'status'>): string {
    const payload = [VERSION, filterOf(query), shard, afterId].join(':');
    return `${Buffer.from(payload).toString('base64url')}.${mac(payload).toString('base64url')}`;
  }

  /** The position a cursor continues from; 400 for any cursor this service did not issue for this filter. */
  function openCursor(query: Pick<ListPetsQuery, 'status' | 'cursor'>): PagePosition | undefined {
    if (query.cursor === undefined) return undefined;
    const [encodedPayload = '', encodedMac = '', ...rest] = query.cursor.split('.');
    const payload = Buffer.from(encodedPayload, 'base64url').toString();
    const expected = mac(payload);
    const given = Buffer.from(encodedMac, 'base64url');
    const authentic =
      rest.length === 0 &&
      given.length === expected.length &&
      timingSafeEqual(given, expected) &&
      encodedPayload === Buffer.from(payload).toString('base64url') &&
      encodedMac === given.toString('base64url');
    const [version, filter, shard, afterId, ...extra] = payload.split(':');
    const position = { shard: Number(shard), afterId: Number(afterId) };
    const valid =
      authentic &&
      version === VERSION &&
      filter === filterOf(query) &&
      extra.length === 0 &&
      Number.isSafeInteger(position.shard) &&
      position.shard >= 0 &&
      Number.isSafeInteger(position.afterId) &&
      position.afterId >= 0;
    if (!valid) throw invalidCursor();
    return position;
  }

  /** The RFC 8288 `Link` header to the next page, repeating limit and status; none on the last page. */
  function nextPageHeaders(query: ListPetsQuery, next: PagePosition | undefined): Record<string, string> {
    if (next === undefined) return {};
    const link = new URLSearchParams({ limit: String(query.limit) });
    if (query.status) link.set('status', query.status);
    link.set('cursor', sealCursor(next, query));
    return { Link: `<${BASE_PATH}/pets?${link}>; rel="next"` };
  }

  return { openCursor, nextPageHeaders };
}
