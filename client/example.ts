// The usage example of the package's README, whose lines between docs:start and docs:end the README
// quotes unchanged; kept as code so that it is type-checked and run against the local server.
import { createPetStoreClient, nextCursor } from './src/index.ts';
import type { Pet, PetStoreClientOptions } from './src/index.ts';

export async function petStoreTour(options: PetStoreClientOptions) {
  // docs:start
  // options: { baseUrl: 'https://api.example.com/v1', apiKey: process.env.PETSTORE_API_KEY }
  const petstore = createPetStoreClient(options);

  // Add an animal. The Idempotency-Key makes the call safe to retry: a retry replays the first answer.
  const created = await petstore.POST('/pets', {
    params: { header: { 'Idempotency-Key': 'add-rex-2026-01-01' } },
    body: { name: 'Rex', categoryId: 9223372036854775807n, status: 'available' },
  });
  if (created.error) throw new Error(`${created.error.code}: ${created.error.message}`);
  const rex: Pet = created.data; // rex.categoryId is the bigint 9223372036854775807n, exactly
  const location = created.response.headers.get('Location'); // '/v1/pets/<id>'

  // Walk every available animal, page by page, following the Link header's cursor.
  const available: Pet[] = [];
  let cursor: string | undefined;
  do {
    const page = await petstore.GET('/pets', {
      params: { query: { status: 'available', limit: 50, cursor } },
    });
    if (page.error) throw new Error(`${page.error.code}: ${page.error.message}`);
    available.push(...page.data);
    cursor = nextCursor(page.response);
  } while (cursor);

  // Errors are typed too: { code, message, status }. (getPet is deprecated: prefer listPets.)
  const missing = await petstore.GET('/pets/{petId}', { params: { path: { petId: 999_999_999 } } });
  const problem = missing.error?.code; // 'not_found'
  // docs:end
  return { rex, location, available, problem };
}
