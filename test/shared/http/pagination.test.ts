// What a next-page link carries when listPets' query grows: every field but the cursor is repeated, a
// filter added later is kept on every page, and cursors issued before it stay valid (cursors never
// expire). The query with an extra field stands for the schema after such a change.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { ListPetsQuery } from '#shared/schemas.ts';
import { createCursors } from '#shared/http/pagination.ts';
import { TEST_CURSOR_SECRET } from '#test/support/test-table.ts';

const cursors = createCursors(TEST_CURSOR_SECRET);
const POSITION = { shard: 3, afterId: 42 };

const linkOf = (query: ListPetsQuery) => {
  const link = cursors.nextPageHeaders(query, POSITION).Link ?? '';
  return new URLSearchParams(/^<\/v1\/pets\?([^>]*)>; rel="next"$/.exec(link)?.[1]);
};

describe('next-page links and cursors', () => {
  it('repeats every field of the query but the cursor, a field the schema gains included', () => {
    const query = { limit: 7, status: 'sold', cursor: 'old', tag: 'dog' } as ListPetsQuery;
    const link = linkOf(query);
    expect([...link.keys()]).toEqual(['limit', 'status', 'tag', 'cursor']);
    expect(link.get('tag')).toBe('dog');
    expect(link.get('cursor')).not.toBe('old');
    expect(cursors.openCursor({ ...query, cursor: link.get('cursor') ?? '' })).toEqual(POSITION);
  });

  it('leaves out the filters not given', () => {
    expect([...linkOf({ limit: 20 }).keys()]).toEqual(['limit', 'cursor']);
  });

  it('binds the cursor to the filters, and opens the cursors issued before this code', () => {
    const cursor = linkOf({ limit: 2, status: 'sold' }).get('cursor') ?? '';
    expect(() => cursors.openCursor({ status: 'pending', cursor })).toThrow(/^cursor: /);
    expect(() => cursors.openCursor({ cursor })).toThrow(/^cursor: /);
    // Version 2 as first issued: `2:<status or *>:<shard>:<afterId>`.
    for (const [status, filter] of [['sold', 'sold'] as const, [undefined, '*'] as const]) {
      const payload = `2:${filter}:3:42`;
      const mac = createHmac('sha256', TEST_CURSOR_SECRET).update(payload).digest().subarray(0, 16);
      const issued = `${Buffer.from(payload).toString('base64url')}.${mac.toString('base64url')}`;
      expect(cursors.openCursor({ status, cursor: issued })).toEqual(POSITION);
    }
  });
});
