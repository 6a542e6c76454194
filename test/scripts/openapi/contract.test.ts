// The contract checker itself: it passes responses the document describes and rejects each way a
// response can break it, integers compared exactly.
import { describe, expect, it } from '@jest/globals';
import { assertResponseMatchesOpenApi } from '#test/support/openapi-contract.ts';
import type { ObservedResponse } from '#test/support/openapi-contract.ts';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const DEPRECATION = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};
const VALIDATORS = { ETag: 'W/"AAAAAAAAAAAAAAAAAAAAAA"', 'Cache-Control': 'private, no-cache' };
const petText = (categoryId = '9223372036854775807', extra = '') =>
  `{"id":42,"name":"Rex","categoryId":${categoryId},"status":"available"${extra}}`;

const listed: ObservedResponse = {
  method: 'GET',
  path: '/v1/pets?limit=1&status=available',
  status: 200,
  headers: {
    ...JSON_TYPE,
    ...VALIDATORS,
    Link: '</v1/pets?limit=1&status=available&cursor=abc.def>; rel="next"',
    'RateLimit-Policy': '"rate";q=5;w=1;petstore-burst=10, "daily";q=10000;w=86400',
  },
  bodyText: `[${petText()}]`,
};
const notModified: ObservedResponse = {
  method: 'GET',
  path: '/v1/pets/42',
  status: 304,
  headers: { ...VALIDATORS, ...DEPRECATION },
  bodyText: '',
};
const created: ObservedResponse = {
  method: 'POST',
  path: '/v1/pets',
  status: 201,
  headers: { ...JSON_TYPE, Location: '/v1/pets/42', 'Idempotent-Replayed': 'true' },
  bodyText: petText(),
};
const missing: ObservedResponse = {
  method: 'GET',
  path: '/v1/pets/43',
  status: 404,
  headers: { ...JSON_TYPE, ...DEPRECATION },
  bodyText: '{"code":"not_found","message":"petId: no animal has id 43","status":404}',
};
const errorText = (code: string, status: number) => `{"code":"${code}","message":"m","status":${status}}`;
const unavailable: ObservedResponse = {
  method: 'GET',
  path: '/v1/pets',
  status: 503,
  headers: { ...JSON_TYPE, 'Retry-After': '1' },
  bodyText: errorText('service_unavailable', 503),
};
const notAllowed: ObservedResponse = {
  method: 'DELETE',
  path: '/v1/pets',
  status: 405,
  headers: { ...JSON_TYPE, Allow: 'GET, POST' },
  bodyText: errorText('method_not_allowed', 405),
};
const unknownPath: ObservedResponse = {
  method: 'GET',
  path: '/v1/owners',
  status: 404,
  headers: JSON_TYPE,
  bodyText: errorText('not_found', 404),
};

describe('assertResponseMatchesOpenApi', () => {
  it.each([
    ['a page with a next link', listed],
    ['a gzipped page', { ...listed, headers: { ...listed.headers, 'Content-Encoding': 'gzip' } }],
    ["getPet's 304 with its validators and deprecation headers", notModified],
    ['a created animal, replayed', created],
    ["getPet's 404 with its deprecation headers", missing],
    ['a 503 with Retry-After', unavailable],
    ['a 405 with Allow', notAllowed],
    ['a 404 for an unknown path', unknownPath],
    ['a 404 outside /v1', { ...unknownPath, path: '/pets' }],
    ['a 401 on any path', { ...unknownPath, status: 401, bodyText: errorText('unauthorized', 401) }],
    [
      'a 422 idempotency conflict',
      { ...created, status: 422, bodyText: errorText('idempotency_conflict', 422) },
    ],
    ['headers as a Headers object', { ...created, headers: new Headers(created.headers) }],
    [
      'a charset parameter',
      { ...created, headers: { ...created.headers, 'Content-Type': 'application/json; charset=utf-8' } },
    ],
  ])('accepts %s', (_case, response) => {
    expect(() => assertResponseMatchesOpenApi(response)).not.toThrow();
  });

  it.each<[string, ObservedResponse, RegExp]>([
    [
      'an undocumented status',
      { ...listed, status: 404 },
      /status 404 is not documented for operation listPets/,
    ],
    [
      'categoryId one above int64',
      { ...created, bodyText: petText('9223372036854775808') },
      /body\/categoryId/,
    ],
    ['categoryId 0', { ...created, bodyText: petText('0') }, /body\/categoryId/],
    ['a fractional categoryId', { ...created, bodyText: petText('1.5') }, /body\/categoryId/],
    [
      'an id of 2^53',
      { ...created, bodyText: petText('1').replace('"id":42', '"id":9007199254740992') },
      /body\/id/,
    ],
    ['an unknown field', { ...created, bodyText: petText('1', ',"owner":"x"') }, /additional properties/],
    ['a missing field', { ...created, bodyText: '{"id":42,"name":"Rex","categoryId":1}' }, /status/],
    [
      'an unknown status value',
      { ...created, bodyText: petText().replace('available', 'lost') },
      /body\/status/,
    ],
    ['no Location', { ...created, headers: JSON_TYPE }, /header Location is missing/],
    [
      'a Location elsewhere',
      { ...created, headers: { ...created.headers, Location: '/pets/42' } },
      /header Location/,
    ],
    [
      'a replay flag other than true',
      { ...created, headers: { ...created.headers, 'Idempotent-Replayed': 'yes' } },
      /Idempotent-Replayed/,
    ],
    [
      'a malformed next link',
      { ...listed, headers: { ...JSON_TYPE, Link: '<https://x/pets>; rel="next"' } },
      /header Link/,
    ],
    [
      'a missing Deprecation header',
      { ...missing, headers: { ...JSON_TYPE, Sunset: DEPRECATION.Sunset, Link: DEPRECATION.Link } },
      /header Deprecation is missing/,
    ],
    [
      'an error status unlike the HTTP status',
      { ...missing, bodyText: errorText('not_found', 400) },
      /body\/status/,
    ],
    [
      'an error code unlike the HTTP status',
      { ...missing, bodyText: errorText('validation_error', 404) },
      /body\/code/,
    ],
    ['an error without message', { ...missing, bodyText: '{"code":"not_found","status":404}' }, /message/],
    ['a 200 without its ETag', { ...listed, headers: { ...JSON_TYPE } }, /header ETag is missing/],
    [
      'a strong ETag',
      { ...listed, headers: { ...listed.headers, ETag: '"AAAAAAAAAAAAAAAAAAAAAA"' } },
      /header ETag/,
    ],
    [
      'a 200 that a shared cache may keep',
      { ...listed, headers: { ...listed.headers, 'Cache-Control': 'public, max-age=60' } },
      /header Cache-Control/,
    ],
    ['a 304 with a body', { ...notModified, bodyText: petText() }, /body: none is documented/],
    [
      'a compression API Gateway does not offer',
      { ...listed, headers: { ...listed.headers, 'Content-Encoding': 'br' } },
      /header Content-Encoding/,
    ],
    ['a 503 without Retry-After', { ...unavailable, headers: JSON_TYPE }, /header Retry-After is missing/],
    [
      'a Retry-After that is no number',
      { ...unavailable, headers: { ...JSON_TYPE, 'Retry-After': 'soon' } },
      /header Retry-After/,
    ],
    [
      'another media type',
      { ...created, headers: { ...created.headers, 'Content-Type': 'text/plain' } },
      /Content-Type text\/plain/,
    ],
    ['a body that is not JSON', { ...created, bodyText: '{"id":' }, /body is not JSON/],
    ['a 405 without Allow', { ...notAllowed, headers: JSON_TYPE }, /header Allow is missing/],
    [
      'a 404 for a known path with another method',
      { ...notAllowed, status: 404, bodyText: errorText('not_found', 404) },
      /not documented for a path without DELETE/,
    ],
    [
      'a 200 for an unknown path',
      { ...unknownPath, status: 200, bodyText: '[]' },
      /not documented for an unknown path/,
    ],
    [
      'a trailing slash answered like the route',
      { ...listed, path: '/v1/pets/' },
      /not documented for an unknown path/,
    ],
  ])('rejects %s', (_case, response, message) => {
    expect(() => assertResponseMatchesOpenApi(response)).toThrow(message);
  });
});
