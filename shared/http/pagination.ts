// Opaque, tamper-evident cursors bound to their filter: `payload.mac`, where the payload holds the
// filter and the walk's position (the shard to read next, the last id seen), and the mac is an
// HMAC-SHA256 with a secret that outlives deployments. Cursors never expire; the position they carry
// stays meaningful forever.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '#shared/api-error.ts';
import { BASE_PATH } from '#shared/http/routes.ts';
import type { ListFilters, ListPetsQuery } from '#shared/schemas.ts';
import type { PagePosition } from '#shared/store/pet-store.ts';
import { LIST_FILTER_NAMES } from '#shared/store/table.ts';

/**
 * A shorter secret would make cursors forgeable: the composition roots that read one from their
 * settings refuse it (Secrets Manager generates 64 characters).
 */
export const CURSOR_SECRET_MIN_LENGTH = 32;
/**
 * Every cursor this service issues has this form, the payload and a 16-byte mac in base64url (whose
 * last character holds 2 bits, so is one of four); the OpenAPI document gives clients the same rule,
 * spelled without `\w`, which other regex dialects read as any letter.
 */
export const CURSOR_FORMAT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{21}[AQgw]$/;
/** Version 1 carried the last id alone, before pets were sharded; nothing deployed ever issued it. */
const VERSION = '2';
const NO_FILTER = '*';

/**
 * The filters a cursor is bound to, in LIST_FILTERS' order, `*` where absent: the status alone is
 * `available` or `*`, as before a second filter existed; the absent filters at the end are left out,
 * so that a filter added later keeps the cursors issued before it valid.
 */
function filterOf(query: ListFilters): string {
  const values = LIST_FILTER_NAMES.map((name) => {
    const value = query[name];
    // `*` escaped too: a value of `*` is not the absence of a filter.
    return value === undefined ? NO_FILTER : encodeURIComponent(String(value)).replaceAll('*', '%2A');
  });
  while (values.length > 1 && values.at(-1) === NO_FILTER) values.pop();
  return values.join(',');
}
const invalidCursor = () =>
  new ApiError('validation_error', 'cursor: is not a cursor this service issued for these filters');

export type Cursors = ReturnType<typeof createCursors>;

export function createCursors(secret: string) {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);

  function sealCursor({ shard, afterId }: PagePosition, query: ListFilters): string {
    const payload = [VERSION, filterOf(query), shard, afterId].join(':');
    return `${Buffer.from(payload).toString('base64url')}.${mac(payload).toString('base64url')}`;
  }

  /** The position a cursor continues from; 400 for any cursor this service did not issue for this filter. */
  function openCursor(query: ListFilters & Pick<ListPetsQuery, 'cursor'>): PagePosition | undefined {
    if (query.cursor === undefined) return undefined;
    if (!CURSOR_FORMAT.test(query.cursor)) throw invalidCursor();
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

  /**
   * The RFC 8288 `Link` header to the next page, repeating every field of the query but the cursor (the
   * page size and each filter given); none on the last page.
   */
  function nextPageHeaders(query: ListPetsQuery, next: PagePosition | undefined): Record<string, string> {
    if (next === undefined) return {};
    const link = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (name !== 'cursor' && value !== undefined) link.set(name, String(value));
    link.set('cursor', sealCursor(next, query));
    return { Link: `<${BASE_PATH}/pets?${link}>; rel="next"` };
  }

  return { openCursor, nextPageHeaders };
}
