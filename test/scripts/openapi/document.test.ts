// What openapi.json promises store clients, and that its NewPet accepts exactly the bodies the
// handler's zod schema accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ROUTES } from '#shared/http/routes.ts';
import { parseJson } from '#shared/json.ts';
import { NewPet } from '#shared/schemas.ts';
import { openApiSchemaErrors } from '#test/support/openapi-contract.ts';

type Operation = { operationId: string; deprecated?: boolean; responses: Record<string, unknown> };
type Document = {
  openapi: string;
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, Operation>>;
};

const text = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
const document = JSON.parse(text) as Document;
const operation = (id: string) =>
  Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === id);

describe('openapi.json', () => {
  it('is OpenAPI 3.1 with production and staging servers ending in /v1', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const hosts = document.servers.map(({ url, variables }) =>
      url.replace('{host}', variables?.host?.default ?? ''),
    );
    expect(hosts).toEqual(
      expect.arrayContaining(['https://api.example.com/v1', 'https://staging.api.example.com/v1']),
    );
    for (const { url } of document.servers) expect(url).toMatch(/\/v1$/);
  });

  it('describes each route under its operation id', () => {
    for (const route of ROUTES) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.operationId);
    }
  });

  it.each([
    ['listPets', ['200', '304', '400', '401', '403', '429', '500', '502', '503', '504']],
    [
      'createPet',
      ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '502', '503', '504'],
    ],
    ['getPet', ['200', '304', '400', '401', '403', '404', '429', '500', '502', '503', '504']],
  ])('lists every status %s can answer', (id, statuses) => {
    expect(Object.keys(operation(id)?.responses ?? {})).toEqual(statuses);
  });

  it('marks getPet, and only getPet, deprecated', () => {
    expect(['listPets', 'createPet', 'getPet'].map((id) => operation(id)?.deprecated ?? false)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('writes the int64 maximum with its exact digits', () => {
    expect(text).toContain('"maximum": 9223372036854775807,');
    expect(text).not.toContain('9223372036854775808');
  });
});

describe("the document's NewPet accepts exactly what the handler's NewPet accepts", () => {
  const agree = (bodyText: string) => {
    const byZod = NewPet.safeParse(parseJson(bodyText)).success;
    const byDocument = openApiSchemaErrors('NewPet', bodyText).length === 0;
    expect({ bodyText, byDocument }).toEqual({ bodyText, byDocument: byZod });
  };
  const body = (name: unknown, categoryId = '1', extra = '') =>
    `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${extra}}`;

  it.each([
    body('Rex'),
    body('Rex', '1', ',"status":"sold"'),
    body('Rex', '1', ',"status":"lost"'),
    body('Rex', '1', ',"status":null'),
    body('Rex', '1', ',"id":1'),
    body('Rex', '9223372036854775807'),
    body('Rex', '9223372036854775808'),
    body('Rex', '0'),
    body('Rex', '-1'),
    body('Rex', '1.0'),
    body('Rex', '1.5'),
    body('Rex', '"1"'),
    body(''),
    body(' \t\n'),
    body('\u00a0\u2028\ufeff'),
    body('\u200b'),
    body('a\u0000b'),
    body('\u001b[31mRex'),
    body('Rex\r\n'),
    body('\tRex'),
    body('Rex\u007f'),
    body('Rex\u0085'),
    body('\u009b31m'),
    body('Rex\u00a0'),
    body(' \u001f '),
    body('🐶'.repeat(100)),
    body('🐶'.repeat(101)),
    body(7),
    '{"name":"Rex"}',
    '{"categoryId":1}',
    '[]',
  ])('%s', agree);

  it('agrees on names of any length made of letters, emoji, whitespace and control characters', () => {
    const unit = fc.constantFrom(
      ...['a', '🐶', ' ', '\u3000', '\u00a0', '\n', '\u2028', '\u200b'],
      ...['\t', '\u0000', '\u001b', '\u001f', '\u007f', '\u0080', '\u009f', '~'],
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 105 }), (name) => agree(body(name))),
      { numRuns: 300 },
    );
  });

  it('agrees on categoryId around the int64 range', () => {
    const categoryId = fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n });
    fc.assert(
      fc.property(categoryId, (id) => agree(body('Rex', String(id)))),
      { numRuns: 300 },
    );
    for (const id of [1n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 63n]) agree(body('Rex', String(id)));
  });
});
