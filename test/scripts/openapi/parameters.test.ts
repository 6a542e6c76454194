// openapi.json's parameters hold what the API accepts, at each edge: a value the document allows is
// never answered 400 for that parameter, and one it refuses always is, over real HTTP to the local
// server. A client or fuzzer that builds requests from the document meets no surprise. The one rule
// a schema cannot state: a cursor of the right form that this service did not sign (a 400 it describes).
import { describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { nextLink } from '#test/e2e/client.ts';
import { useTestServer } from '#test/support/http.ts';
import { openApiParameterErrors } from '#test/support/openapi-contract.ts';

const { request } = useTestServer();

/** A parameter's value as a client serializes it: a string as it is, a number as its digits. */
const serialized = (jsonText: string) => {
  const value: unknown = JSON.parse(jsonText);
  return encodeURIComponent(typeof value === 'string' ? value : jsonText);
};

/** The agreement for one value: documented valid exactly when the API takes it. */
async function expectAgreement(operationId: string, name: string, jsonText: string, target: string) {
  const documented = openApiParameterErrors(operationId, name, jsonText).length === 0;
  const response = await request(target);
  const refused = response.status === 400;
  expect({ name, jsonText, documented, status: response.status }).toEqual({
    name,
    jsonText,
    documented: !refused,
    status: expect.any(Number),
  });
  if (refused) expect((response.json as { message: string }).message).toMatch(new RegExp(`^${name}: `));
}

/** A cursor the API issued, from a listing of one pet per page. */
async function issuedCursor(): Promise<string> {
  for (const name of ['Edge 1', 'Edge 2'])
    await request('/v1/pets', { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) });
  const next = nextLink(await request('/v1/pets?limit=1')) ?? '';
  return new URL(next, 'http://localhost').searchParams.get('cursor') ?? '';
}

describe("openapi.json's parameters, at each edge, against the API", () => {
  it.each([
    ['limit', ['0', '1', '20', '100', '101', '-1', '1.5', '9007199254740993', '"abc"', '""']],
    ['status', ['"available"', '"pending"', '"sold"', '"lost"', '""', '"AVAILABLE"', '1']],
  ])('listPets %s', async (name, values) => {
    for (const jsonText of values)
      await expectAgreement('listPets', name, jsonText, `/v1/pets?${name}=${serialized(jsonText)}`);
  });

  it('listPets cursor', async () => {
    const cursor = await issuedCursor();
    const [payload = '', mac = ''] = cursor.split('.');
    const values = [
      cursor,
      '',
      'abc',
      `${cursor}x`,
      `${payload}${mac}`,
      `${payload}.${mac.slice(0, -1)}B`,
      `${payload}.${mac}.`,
      `é${cursor}`,
      `${payload}+.${mac}`,
    ];
    for (const value of values) {
      const jsonText = JSON.stringify(value);
      await expectAgreement(
        'listPets',
        'cursor',
        jsonText,
        `/v1/pets?limit=1&cursor=${serialized(jsonText)}`,
      );
    }
    // Of the right form, but not signed by this service: the description's 400.
    const forged = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect(openApiParameterErrors('listPets', 'cursor', JSON.stringify(forged))).toEqual([]);
    expect((await request(`/v1/pets?limit=1&cursor=${forged}`)).status).toBe(400);
  });

  it('getPet petId', async () => {
    const created = await request('/v1/pets', {
      method: 'POST',
      body: JSON.stringify({ name: 'Edge', categoryId: 1 }),
    });
    const values = [
      String((created.json as Pet).id),
      '0',
      '1',
      '-1',
      '1.5',
      '9007199254740993',
      '9223372036854775807',
      '9223372036854775808',
      '"abc"',
    ];
    for (const jsonText of values)
      await expectAgreement('getPet', 'petId', jsonText, `/v1/pets/${serialized(jsonText)}`);
  });
});
