// A store client in plain ESM JavaScript, with nothing but the packed @petstore-api/client installed,
// run against the real local server. It adds the largest categoryId and reads it back, walks the
// pages, asks for an animal that does not exist, and prints what it saw as JSON (bigints as "<digits>n").
import { createPetStoreClient, nextCursor } from '@petstore-api/client';

const INT64_MAX = 9223372036854775807n;
const petstore = createPetStoreClient({
  baseUrl: process.env.PETSTORE_BASE_URL,
  apiKey: process.env.PETSTORE_API_KEY,
});

const created = await petstore.POST('/pets', { body: { name: 'Biggest', categoryId: INT64_MAX } });
const readBack = await petstore.GET('/pets/{petId}', { params: { path: { petId: created.data.id } } });
for (const name of ['Bella', 'Coco', 'Luna', 'Milo']) {
  await petstore.POST('/pets', { body: { name, categoryId: 1, status: 'sold' } });
}

const pages = [];
let cursor;
do {
  const page = await petstore.GET('/pets', { params: { query: { limit: 2, cursor } } });
  pages.push(page.data.map((pet) => pet.name));
  cursor = nextCursor(page.response);
} while (cursor);

const missing = await petstore.GET('/pets/{petId}', { params: { path: { petId: 9007199254740991 } } });

const report = {
  created: created.data,
  readBack: readBack.data,
  readBackIsExact: readBack.data.categoryId === INT64_MAX,
  pages,
  missing: { status: missing.response.status, data: missing.data ?? null, error: missing.error },
};
process.stdout.write(
  JSON.stringify(report, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value)),
);
