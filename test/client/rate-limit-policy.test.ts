// How the client reads RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11) into the pace it
// keeps: the API's own field, several policies on one or more field lines, the parameters it ignores,
// the windows it does not pace, and malformed fields, which it ignores whole.
import { describe, expect, it } from '@jest/globals';
import { paceOf, parseRateLimitPolicy } from '#client/src/rate-limit-policy.ts';

const API_FIELD = '"rate";q=5;w=1;petstore-burst=10, "daily";q=10000;w=86400';
const paceFor = (field: string | null) => paceOf(parseRateLimitPolicy(field) ?? []);

describe('RateLimit-Policy', () => {
  it("reads the API's field: a bucket of 10 refilled 5 a second, and 10,000 a day", () => {
    expect(parseRateLimitPolicy(API_FIELD)).toEqual([
      { name: 'rate', quota: 5, unit: 'requests', windowSeconds: 1, burst: 10 },
      { name: 'daily', quota: 10_000, unit: 'requests', windowSeconds: 86_400, burst: undefined },
    ]);
    expect(paceFor(API_FIELD)).toEqual({ perSecond: 5, burst: 10 });
  });

  it('reads policies split over several field lines as one list', () => {
    const headers = new Headers([
      ['RateLimit-Policy', '"daily";q=10000;w=86400'],
      ['RateLimit-Policy', '"rate";q=5;w=1;petstore-burst=10'],
    ]);
    expect(paceFor(headers.get('RateLimit-Policy'))).toEqual({ perSecond: 5, burst: 10 });
  });

  it.each([
    ['the shortest window, wherever it stands', '"permin";q=50;w=60, "persec";q=2;w=1', 2, 2],
    ['the lower rate of two windows as short', '"a";q=10;w=1, "b";q=3;w=1', 3, 3],
    ['the quota as the burst without petstore-burst', '"rate";q=20;w=10', 2, 20],
    ['the quota as the burst when petstore-burst is 0', '"r";q=5;w=1;petstore-burst=0', 5, 5],
    ['the quota as the burst when petstore-burst is a String', '"r";q=5;w=1;petstore-burst="10"', 5, 5],
  ])('takes %s', (_, field, perSecond, burst) => {
    expect(paceFor(field)).toEqual({ perSecond, burst });
  });

  it('takes the parameters it has no use for as comments, in every Structured Fields type', () => {
    const field =
      '"r";q=5;w=1;pk=:cHsdsRa894==:;petstore-note="a \\"b\\"";on;x=1.5;t=tok/en;d=@1700000000;s=%"caf%c3%a9"';
    expect(parseRateLimitPolicy(field)).toEqual([
      { name: 'r', quota: 5, unit: 'requests', windowSeconds: 1, burst: undefined },
    ]);
  });

  it('reads a policy name with escapes', () => {
    expect(parseRateLimitPolicy('"a \\"quoted\\" \\\\ name";q=1;w=1')?.[0]?.name).toBe('a "quoted" \\ name');
  });

  it.each([
    ['a day: spread evenly, it would delay everything', '"daily";q=10000;w=86400'],
    ['an hour', '"hourly";q=1000;w=3600'],
    ['a quota of content bytes', '"bytes";q=65535;qu="content-bytes";w=10'],
    ['a quota of concurrent requests', '"busy";q=4;qu="concurrent-requests";w=1'],
    ['a zero quota, which would hold requests forever', '"none";q=0;w=1'],
    ['a policy without a window', '"forever";q=100'],
  ])('does not pace by %s', (_, field) => {
    expect(parseRateLimitPolicy(field)).toHaveLength(1);
    expect(paceFor(field)).toBeUndefined();
  });

  it.each([
    ['absent', null],
    ['empty', ''],
    ['a trailing comma', '"rate";q=5;w=1,'],
    ['an empty member', '"rate";q=5;w=1,,"daily";q=10000;w=86400'],
    ['a token for a name', 'rate;q=5;w=1'],
    ['an Integer for a name', '5;q=5;w=1'],
    ['an Inner List', '("rate" "daily");q=5;w=1'],
    ['no q', '"rate";w=1'],
    ['a Decimal q', '"rate";q=5.0;w=1'],
    ['a negative q', '"rate";q=-5;w=1'],
    ['a String q', '"rate";q="5";w=1'],
    ['a zero w', '"rate";q=5;w=0'],
    ['a Decimal w', '"rate";q=5;w=0.5'],
    ['a token qu', '"rate";q=5;qu=requests;w=1'],
    ['a String pk', '"rate";q=5;w=1;pk="user"'],
    ['an uppercase key', '"rate";Q=5;w=1'],
    ['an unterminated String', '"rate;q=5;w=1'],
    ['a control character in a String', '"ra\tte";q=5;w=1'],
    ['an Integer of 16 digits', '"rate";q=1234567890123456;w=1'],
    ['a Decimal ending in a dot', '"rate";q=5;w=1;x=1.'],
    ['an undecodable Display String', '"rate";q=5;w=1;s=%"%ff"'],
    ['text after a member', '"rate";q=5;w=1 "daily"'],
    ['one malformed member of two', '"rate";q=5;w=1;petstore-burst=10, "daily";q=ten;w=86400'],
  ])('ignores a field that is malformed: %s', (_, field) => {
    expect(parseRateLimitPolicy(field)).toBeUndefined();
    expect(paceFor(field)).toBeUndefined();
  });
});
