// listPets' handler, invoked with API Gateway proxy events over this file's table in the test
// DynamoDB: pages in id order, filters, next links, and cursors that cannot be forged or misused.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Pet } from '#shared/schemas.ts';
import { LIST_FILTER_NAMES } from '#shared/store/table.ts';
import { createPetRequest, invoke, listPetsRequest } from '#local/api-gateway/proxy-requests.ts';
import type { Response } from '#local/api-gateway/proxy-requests.ts';
import { testFunctions } from '#test/support/test-table.ts';

const { createPet, listPets } = testFunctions;

const STATUSES = ['available', 'pending', 'sold'] as const;
const TOTAL = 45;
const created: Pet[] = [];

beforeAll(async () => {
  for (let i = 0; i < TOTAL; i++) {
    const response = await invoke(
      createPet,
      createPetRequest({ name: `Pet ${i}`, categoryId: i + 1, status: STATUSES[i % 3] }),
    );
    created.push(response.json as Pet);
  }
});

const pets = (response: Response) => response.json as Pet[];
const nextLink = (response: Response) => /^<([^>]+)>; rel="next"$/.exec(response.headers.Link ?? '')?.[1];
const queryOf = (link: string) => new URL(link, 'http://x').search.slice(1);

async function walk(query: string): Promise<{ pages: Response[]; pets: Pet[] }> {
  const pages: Response[] = [];
  let next: string | undefined = query;
  while (next !== undefined) {
    const page = await invoke(listPets, listPetsRequest(next));
    expect(page.status).toBe(200);
    pages.push(page);
    const link = nextLink(page);
    next = link === undefined ? undefined : queryOf(link);
  }
  return { pages, pets: pages.flatMap(pets) };
}

describe('listPets', () => {
  it('returns at most 20 animals by default, ordered by id, as a plain array', async () => {
    const response = await invoke(listPets, listPetsRequest());
    expect(response.status).toBe(200);
    expect(Array.isArray(response.json)).toBe(true);
    expect(pets(response)).toEqual(created.slice(0, 20));
    expect(response.headers['Content-Type']).toBe('application/json');
  });

  it.each([1, 7, 20, 100])('walks every animal exactly once with limit=%i', async (limit) => {
    const { pages, pets: walked } = await walk(`limit=${limit}`);
    expect(walked.map((pet) => pet.id)).toEqual(created.map((pet) => pet.id));
    expect(pages.every((page) => pets(page).length <= limit)).toBe(true);
    expect(pages.length).toBe(Math.ceil(TOTAL / limit));
  });

  it('sends no next link when a page ends exactly at the last animal', async () => {
    const { pages } = await walk('limit=15');
    expect(pages).toHaveLength(3);
    expect(pages.at(-1)?.headers.Link).toBeUndefined();
  });

  it('builds the next link as a path-absolute URL repeating limit and status', async () => {
    const response = await invoke(listPets, listPetsRequest('limit=2&status=pending'));
    const link = nextLink(response);
    expect(link).toMatch(/^\/v1\/pets\?limit=2&status=pending&cursor=[A-Za-z0-9_.-]+$/);
  });

  it.each(STATUSES)('filters by status=%s and walks only those animals', async (status) => {
    const { pets: walked } = await walk(`status=${status}&limit=4`);
    expect(walked).toEqual(created.filter((pet) => pet.status === status));
  });

  it('lets a cursor be reused with another limit', async () => {
    const first = await invoke(listPets, listPetsRequest('limit=5'));
    const cursor = new URLSearchParams(queryOf(nextLink(first) ?? '')).get('cursor');
    const second = await invoke(listPets, listPetsRequest(`limit=3&cursor=${cursor}`));
    expect(pets(second)).toEqual(created.slice(5, 8));
  });

  it('ignores a Content-Encoding header: a GET has no body to decode', async () => {
    const request = listPetsRequest('limit=5');
    const response = await invoke(listPets, {
      ...request,
      headers: [...(request.headers ?? []), ['Content-Encoding', 'gzip']],
    });
    expect(response.status).toBe(200);
    expect(pets(response)).toHaveLength(5);
  });

  it('ignores unknown query parameters', async () => {
    const response = await invoke(listPets, listPetsRequest('limit=2&colour=red&colour=blue'));
    expect(pets(response)).toEqual(created.slice(0, 2));
  });

  it.each([
    ['limit=0', 'limit:'],
    ['limit=101', 'limit:'],
    ['limit=-1', 'limit:'],
    ['limit=%2B5', 'limit:'],
    ['limit=abc', 'limit:'],
    ['limit=1.5', 'limit:'],
    ['limit=', 'limit:'],
    ['limit=05', 'limit:'],
    ['limit=%205', 'limit:'],
    ['limit=1e1', 'limit:'],
    ['limit=99999999999999999999', 'limit:'],
    ['limit=5&limit=6', 'limit: must be given at most once'],
    ['status=lost', 'status: must be one of available, pending, sold'],
    ['status=Available', 'status:'],
    ['status=', 'status:'],
    ['status=sold&status=pending', 'status: must be given at most once'],
    ['cursor=abc', 'cursor:'],
    ['cursor=', 'cursor:'],
  ])('rejects %s with 400 validation_error naming the parameter', async (query, message) => {
    const response = await invoke(listPets, listPetsRequest(query));
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      code: 'validation_error',
      message: expect.stringContaining(message),
      status: 400,
    });
  });

  it('answers every filter at once, or refuses the combination in ListPetsQuery with a 400: never a 5xx', async () => {
    // The first animal's value of each filter, or one no animal has.
    const values = LIST_FILTER_NAMES.map((name) => [name, String(created[0]?.[name] ?? 'none')] as const);
    const query = values.map(([name, value]) => `&${name}=${encodeURIComponent(value)}`).join('');
    const response = await invoke(listPets, listPetsRequest(`limit=100${query}`));
    expect(response.status).not.toBeGreaterThanOrEqual(500);
    if (response.status === 200) {
      const matching = created.filter((pet) => values.every(([name, value]) => String(pet[name]) === value));
      expect(pets(response)).toEqual(matching);
    }
  });

  it('accepts the boundary limits 1 and 100', async () => {
    expect(pets(await invoke(listPets, listPetsRequest('limit=1')))).toHaveLength(1);
    expect(pets(await invoke(listPets, listPetsRequest('limit=100')))).toHaveLength(TOTAL);
  });

  describe('cursors', () => {
    async function cursorFor(query: string) {
      const link = nextLink(await invoke(listPets, listPetsRequest(query)));
      return new URLSearchParams(queryOf(link ?? '')).get('cursor') ?? '';
    }
    const rejects = async (query: string) => {
      const response = await invoke(listPets, listPetsRequest(query));
      expect(response.json).toMatchObject({ code: 'validation_error', status: 400 });
      expect((response.json as { message: string }).message).toMatch(/^cursor: /);
    };

    it('rejects a cursor issued for another status filter', async () => {
      const cursor = await cursorFor('limit=2&status=sold');
      await rejects(`limit=2&status=pending&cursor=${cursor}`);
      await rejects(`limit=2&cursor=${cursor}`);
    });

    it('rejects an edited or truncated cursor', async () => {
      const cursor = await cursorFor('limit=2');
      const flip = (text: string, at: number) =>
        text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      for (const tampered of [
        flip(cursor, 0),
        flip(cursor, cursor.length - 1),
        cursor.slice(0, -1),
        cursor + 'A',
      ]) {
        await rejects(`cursor=${encodeURIComponent(tampered)}`);
      }
    });

    it('rejects a forged cursor whose payload points elsewhere', async () => {
      const cursor = await cursorFor('limit=2');
      const [, mac] = cursor.split('.');
      const payload = Buffer.from('1:*:40').toString('base64url');
      await rejects(`cursor=${payload}.${mac}`);
    });
  });
});
