// A store client in strict TypeScript, type-checked in an empty project with nothing but the packed
// @petstore-api/client installed. Each @ts-expect-error is a mistake the package's types must catch:
// if one were accepted, the check would fail.
import { createPetStoreClient, listAllPets, nextCursor, PetStoreError } from '@petstore-api/client';
import type {
  CacheOptions,
  ErrorBody,
  ListPetsQuery,
  NewPet,
  Pet,
  PetStatus,
  PetStoreClient,
  RetryOptions,
} from '@petstore-api/client';

export const petstore: PetStoreClient = createPetStoreClient({
  baseUrl: 'https://api.example.com/v1',
  apiKey: 'psk_example',
});

export async function addAnimal(name: string, categoryId: bigint, status?: PetStatus): Promise<Pet> {
  const body: NewPet = status === undefined ? { name, categoryId } : { name, categoryId, status };
  const { data, error } = await petstore.POST('/pets', {
    params: { header: { 'Idempotency-Key': `add-${name}` } },
    body,
  });
  if (error) throw new Error(`${error.code} (${error.status}): ${error.message}`);
  const exactCategory: bigint = data.categoryId;
  // @ts-expect-error categoryId arrives as a bigint, never as a rounded number
  const roundedCategory: number = data.categoryId;
  void exactCategory;
  void roundedCategory;
  return data;
}

export async function everyAnimal(status: PetStatus): Promise<Pet[]> {
  const animals: Pet[] = [];
  let cursor: string | undefined;
  do {
    const page = await petstore.GET('/pets', { params: { query: { status, limit: 100, cursor } } });
    if (page.error) throw new Error(page.error.message);
    animals.push(...page.data);
    cursor = nextCursor(page.response);
  } while (cursor);
  return animals;
}

export async function allOf(query: ListPetsQuery, signal: AbortSignal): Promise<Pet[]> {
  const animals: Pet[] = [];
  try {
    for await (const pet of listAllPets(petstore, query, { signal })) animals.push(pet);
  } catch (error) {
    if (!(error instanceof PetStoreError)) throw error;
    const body: ErrorBody | undefined = error.body;
    const response: Response = error.response;
    throw new Error(`${body?.code ?? error.status}: ${response.headers.get('Retry-After')}`, {
      cause: error,
    });
  }
  return animals;
}

const patient: RetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 30_000,
};
const small: CacheOptions = { maxEntries: 50 };
export const clients: PetStoreClient[] = [
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', retries: patient }),
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', retries: 0 }),
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', retries: { maxAttempts: 1 } }),
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', cache: small }),
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', cache: false }),
];

export async function findAnimal(petId: number): Promise<Pet | undefined> {
  const { data, error } = await petstore.GET('/pets/{petId}', { params: { path: { petId } } });
  if (error?.code === 'not_found') return undefined;
  if (error) {
    const problem: ErrorBody = error;
    throw new Error(problem.message);
  }
  return data;
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error name is required
  await petstore.POST('/pets', { body: { categoryId: 1 } });
  // @ts-expect-error status is one of available, pending and sold
  await petstore.POST('/pets', { body: { name: 'Rex', categoryId: 1, status: 'lost' } });
  // @ts-expect-error getPet needs its petId
  await petstore.GET('/pets/{petId}', {});
  // @ts-expect-error there is no such path
  await petstore.GET('/animals');
  // @ts-expect-error the client needs the API key
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1' });
  // @ts-expect-error maxAttempts is a number
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', retries: { maxAttempts: '3' } });
  // @ts-expect-error retries is options, 0 or false
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', retries: 3 });
  // @ts-expect-error cache is { maxEntries } or false
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', cache: true });
  // @ts-expect-error maxEntries is a number
  createPetStoreClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', cache: { maxEntries: '50' } });
  // @ts-expect-error listPets has no such status
  listAllPets(petstore, { status: 'lost' });
  // @ts-expect-error listAllPets needs the client
  listAllPets({ status: 'sold' });
}
