// A bounded load on loopback: 1,000 creates from 50 concurrent clients, then every id read back
// and a walk of the list that must meet each pet exactly once.
import { expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { useTestServer } from '#test/support/http.ts';

const CREATES = 1_000;
const CLIENTS = 50;

const { request } = useTestServer();

/** Runs `work` for 0..count-1 with `clients` requests in flight at most. */
async function withClients<T>(count: number, clients: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  async function client() {
    while (next < count) {
      const i = next++;
      results[i] = await work(i);
    }
  }
  await Promise.all(Array.from({ length: clients }, client));
  return results;
}

it('keeps 1,000 creates from 50 clients distinct, readable and listed once each', async () => {
  const created = await withClients(CREATES, CLIENTS, async (i) => {
    const response = await request('/v1/pets', {
      method: 'POST',
      body: JSON.stringify({
        name: `Load ${i}`,
        categoryId: i + 1,
        status: ['available', 'pending', 'sold'][i % 3],
      }),
    });
    expect(response.status).toBe(201);
    return response.json as Pet;
  });
  const ids = created.map((pet) => pet.id);
  expect(new Set(ids).size).toBe(CREATES);

  const read = await withClients(CREATES, CLIENTS, (i) => request(`/v1/pets/${ids[i]}`));
  expect(read.map((response) => response.json)).toEqual(created);

  const seen: number[] = [];
  let next: string | undefined = '/v1/pets?limit=100';
  while (next) {
    const page = await request(next);
    seen.push(...(page.json as Pet[]).map((pet) => pet.id));
    next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
  }
  expect(seen).toHaveLength(CREATES);
  expect([...seen].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
}, 120_000);
