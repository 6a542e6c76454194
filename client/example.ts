// The usage example of the package's README, whose lines between docs:start and docs:end the README
// quotes unchanged; kept as code so that it is type-checked and run against the local server.
import { createPetStoreClient, listAllPets } from './src/index.ts';
import type { Pet, PetStoreClientOptions } from './src/index.ts';

export async function petStoreTour(options: PetStoreClientOptions) {
  // docs:start
  // options: { baseUrl: 'https://api.example.com/v1', apiKey: process.env.PETSTORE_API_KEY }
  const petstore = createPetStoreClient(options);

  // Add an animal. Should its answer be lost, the client sends it again with the same Idempotency-Key
  // (one it made up), and the server replays its first answer rather than add a second Rex.
  const created = await petstore.POST('/pets', {
    body: { name: 'Rex', categoryId: 9223372036854775807n, status: 'available' },
  });
  if (created.error) throw new Error(`${created.error.code}: ${created.error.message}`);
  const rex: Pet = created.data; // rex.categoryId is the bigint 9223372036854775807n, exactly
  const location = created.response.headers.get('Location'); // '/v1/pets/<id>'

  // Every available animal, page after page: listAllPets follows the Link header's cursor, and
  // throws a PetStoreError (its typed body and the Response) if the API answers with an error.
  const available: Pet[] = [];
  for await (const pet of listAllPets(petstore, { status: 'available', limit: 50 })) {
    available.push(pet);
  }

  // Errors are typed too: { code, message, status }. (getPet is deprecated: prefer listPets.)
  const missing = await petstore.GET('/pets/{petId}', { params: { path: { petId: 999_999_999 } } });
  const problem = missing.error?.code; // 'not_found'
  // docs:end
  return { rex, location, available, problem };
}
