// listPets' pages as the client follows them: the next cursor read from the Link header, and every
// animal of a walk as one async iterable that asks each page once and yields each animal once, so a
// repeated cursor or an animal on two pages cannot make a loop spin or count twice.
import { PetStoreError } from './api-error.ts';
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

type Pet = components['schemas']['Pet'];
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;

const NEXT_LINK = /<([^>]*)>\s*;\s*rel="?next"?/;

/** The next page's target in a `Link` header, as sent (`/v1/pets?...`); undefined on the last page. */
export const nextLink = (link: string | null): string | undefined => NEXT_LINK.exec(link ?? '')?.[1];

/** The cursor of the next page from listPets' `Link` header; undefined on the last page. */
export function nextCursor(response: Response): string | undefined {
  const query = nextLink(response.headers.get('Link'))?.split('?')[1];
  return new URLSearchParams(query).get('cursor') ?? undefined;
}

/**
 * Every animal listPets has for `query` (`status`, `limit`, a first `cursor`), page after page, for
 * `for await`. An error answer throws a PetStoreError; a `signal` that aborts ends the walk with its reason.
 */
export async function* listAllPets(
  client: Client<paths>,
  query: ListPetsQuery = {},
  { signal }: { signal?: AbortSignal } = {},
): AsyncGenerator<Pet, void, undefined> {
  const askedCursors = new Set<string | undefined>();
  const yieldedIds = new Set<number>();
  let cursor = query.cursor;
  for (;;) {
    askedCursors.add(cursor);
    const { data, error, response } = await client.GET('/pets', {
      params: { query: { ...query, cursor } },
      ...(signal && { signal }),
    });
    if (!response.ok || data === undefined) throw new PetStoreError(response, error);
    for (const pet of data) {
      if (yieldedIds.has(pet.id)) continue;
      yieldedIds.add(pet.id);
      yield pet;
    }
    cursor = nextCursor(response);
    if (cursor === undefined) return;
    if (askedCursors.has(cursor)) {
      throw new Error(`listPets' Link names the cursor ${cursor} again: the walk stops rather than loop`);
    }
  }
}
