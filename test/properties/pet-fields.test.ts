// Every field of the schemas survives every path a pet takes: created, read back, listed (with and
// without each filter) and replayed, over the functions on the test DynamoDB. The bodies are generated
// from NewPet's own schema, so a field added there is generated, and checked, with no edit here.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseJson, stringifyJson } from '#shared/json.ts';
import { NewPet, Pet } from '#shared/schemas.ts';
import { LIST_FILTER_NAMES } from '#shared/store/table.ts';
import { testFunctions } from '#test/support/test-table.ts';
import * as proxy from '#local/api-gateway/proxy-requests.ts';

const { createPet, getPet, listPets } = testFunctions;

type FieldSchema = {
  _zod: {
    def: {
      type: string;
      innerType?: FieldSchema;
      entries?: object;
      pattern?: RegExp;
      checks?: { _zod: { def: { pattern?: RegExp } } }[];
    };
  };
};

/** Candidate values of a field by its schema's kind and pattern; the schema then keeps the valid ones. */
function valuesOf(field: FieldSchema, name: string): fc.Arbitrary<unknown> {
  const { def } = field._zod;
  switch (def.type) {
    case 'optional':
    case 'default':
      return fc.option(valuesOf(def.innerType as FieldSchema, name), { nil: undefined });
    case 'string': {
      // A format (email...) or a regex check: strings that match it, which random text never does.
      const pattern = def.pattern ?? def.checks?.find((check) => check._zod.def.pattern)?._zod.def.pattern;
      return pattern
        ? fc.stringMatching(pattern)
        : fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 });
    }
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'bigint':
      return fc.bigInt({ min: -1n, max: 2n ** 64n });
    case 'number':
      return fc.oneof(fc.integer(), fc.double());
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(`NewPet field "${name}" is a ${def.type}: give it values in this test`);
  }
}

const shape = NewPet._zod.def.shape as Record<string, FieldSchema>;
const newPetBodies = fc
  .record(Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, valuesOf(field, name)])))
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)))
  .filter((body) => NewPet.safeParse(body).success);

/** The animal with this id in listPets' answer to `query`, following the next-page links. */
async function listed(query: string, id: unknown): Promise<unknown> {
  for (let next: string | undefined = query; next !== undefined;) {
    const page = await proxy.invoke(listPets, proxy.listPetsRequest(next));
    const found = (parseJson(page.text) as Record<string, unknown>[]).find((pet) => pet.id === id);
    if (found) return found;
    next = /^<\/v1\/pets\?([^>]*)>; rel="next"$/.exec(page.headers.Link ?? '')?.[1];
  }
  return undefined;
}

/** The response's JSON with int64 values exact. */
const bodyOf = (response: { text: string }) => parseJson(response.text) as Record<string, unknown>;

describe("the pet's fields, end to end", () => {
  it('has every NewPet field in Pet, and every Pet field but the id in NewPet', () => {
    const petFields = Object.keys(Pet._zod.def.shape);
    const notInPet = Object.keys(shape).filter((name) => !petFields.includes(name));
    const notInNewPet = petFields.filter((name) => name !== 'id' && !(name in shape));
    expect([
      ...notInPet.map((name) => `add "${name}" to Pet in shared/schemas.ts`),
      ...notInNewPet.map((name) => `add "${name}" to NewPet in shared/schemas.ts`),
    ]).toEqual([]);
  });

  it('keeps every field through create, get, list with each filter, and replay', async () => {
    let run = 0;
    const fieldsSent = new Set<string>();
    await fc.assert(
      fc.asyncProperty(newPetBodies, async (body) => {
        const key = `pet-fields-${++run}-${Date.now()}`;
        const post = () =>
          proxy.invoke(
            createPet,
            proxy.createPetRequest(stringifyJson(body), { headers: [['Idempotency-Key', key]] }),
          );
        const created = await post();
        expect(created.status).toBe(201);
        const pet = bodyOf(created);
        expect(pet).toEqual({ id: pet.id, ...NewPet.parse(body) });
        for (const name of Object.keys(body)) fieldsSent.add(name);

        expect(bodyOf(await proxy.invoke(getPet, proxy.getPetRequest(String(pet.id))))).toEqual(pet);
        const filters = LIST_FILTER_NAMES.filter((name) => pet[name] !== undefined);
        for (const filter of [
          '',
          ...filters.map((name) => `&${name}=${encodeURIComponent(String(pet[name]))}`),
        ])
          expect(await listed(`limit=20${filter}`, pet.id)).toEqual(pet);

        const replayed = await post();
        expect(replayed.headers['Idempotent-Replayed']).toBe('true');
        expect(bodyOf(replayed)).toEqual(pet);
      }),
      { numRuns: 25 },
    );
    // A field the generator never gave a valid value would pass unchecked.
    const neverSent = Object.keys(shape).filter((name) => !fieldsSent.has(name));
    expect(
      neverSent.map((name) => `no valid value generated for "${name}": give it values in valuesOf`),
    ).toEqual([]);
  });
});
