// Property-based: a name such as `toString` or `__proto__` is any other name, anywhere a client can
// put one (a query parameter, a header, a body field, an id, a cursor, an idempotency key), through
// the whole stack in front of the functions (gateway-calls.ts).
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  KEYED_BODY,
  RUNS,
  call,
  created,
  storedExactlyTheCreated,
  storedItems,
} from '#test/properties/gateway-calls.ts';
import type { Call } from '#test/properties/gateway-calls.ts';
import { PET_FIELDS } from '#shared/store/pet-item.ts';

/** Names an object already answers to: a map keyed by what a client sends must not look them up. */
const BUILT_IN_NAMES = [Object.prototype, Array.prototype, Function.prototype].flatMap((prototype) =>
  Object.getOwnPropertyNames(prototype),
);
const builtInName = fc
  .tuple(fc.constantFrom(...BUILT_IN_NAMES), fc.boolean())
  .map(([name, upper]) => (upper ? name.toUpperCase() : name));

describe('names like an object built-in, anywhere a client can put a name', () => {
  const newPet = '{"name":"Builtin","categoryId":1}';
  let petId: string;
  beforeAll(async () => {
    const pet = await call({
      method: 'POST',
      target: '/v1/pets',
      headers: [['Content-Type', 'application/json']],
      body: newPet,
    });
    petId = String(pet.json.id);
    created.count++;
  });
  const reads = () => ['/v1/pets?limit=2', `/v1/pets/${petId}`];

  it('as a query parameter or header on a read: the answer is the one without it', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, fc.constantFrom(0, 1), async (name, route) => {
        const target = reads()[route] ?? '';
        const without = await call({ method: 'GET', target });
        const asQuery = await call({ method: 'GET', target: `${target}${route ? '?' : '&'}${name}=a` });
        const asHeader = await call({ method: 'GET', target, headers: [[name, '1']] });
        expect(without.status).toBe(200);
        for (const answer of [asQuery, asHeader]) expect(answer.json).toEqual(without.json);
      }),
      RUNS,
    );
  });

  it('as a query parameter or header on createPet: a 201 like any other', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, async (name) => {
        const json: [string, string] = ['Content-Type', 'application/json'];
        const asQuery = await call({
          method: 'POST',
          target: `/v1/pets?${name}=a`,
          headers: [json],
          body: newPet,
        });
        const asHeader = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [json, [name, '1']],
          body: newPet,
        });
        for (const { status, json: pet } of [asQuery, asHeader]) {
          expect(status).toBe(201);
          expect(pet).toMatchObject({ name: 'Builtin', categoryId: 1 });
          created.count++;
        }
      }),
      RUNS,
    );
  });

  it('as a body field, an id, a cursor or an idempotency key: the answer any such value gets', async () => {
    await fc.assert(
      fc.asyncProperty(builtInName, async (name) => {
        // `name` is Function.prototype's and a pet's: as a field it is a known one.
        fc.pre(!Object.keys(PET_FIELDS).includes(name));
        const stored = await storedItems();
        const json: [string, string] = ['Content-Type', 'application/json'];
        const field = await call({
          method: 'POST',
          target: '/v1/pets',
          headers: [json],
          body: `{"name":"Builtin","categoryId":1,${JSON.stringify(name)}:{"status":"sold"}}`,
        });
        expect(field.json).toEqual({
          code: 'validation_error',
          message: `${name}: unknown field`,
          status: 400,
        });
        expect(await storedItems()).toBe(stored);
        expect((await call({ method: 'GET', target: `/v1/pets/${name}` })).status).toBe(400);
        expect((await call({ method: 'GET', target: `/v1/pets?cursor=${name}` })).status).toBe(400);
        const keyed = { method: 'POST', target: '/v1/pets', headers: [json, ['Idempotency-Key', name]] };
        const first = await call({ ...keyed, body: KEYED_BODY } as Call);
        const replay = await call({ ...keyed, body: KEYED_BODY } as Call);
        expect([first.status, replay.status]).toEqual([201, 201]);
        expect(replay.json).toEqual(first.json);
        if (!first.headers['Idempotent-Replayed']) created.count++;
      }),
      RUNS,
    );
  });
});

storedExactlyTheCreated();
