// A store client in plain ESM JavaScript, with nothing but the packed @petstore-api/client installed,
// run against the real local server: the largest categoryId round trip, pages by hand and with
// listAllPets, a missing animal, and retries through a fetch that loses or replaces answers. It
// prints what it saw as JSON (bigints as "<digits>n").
import { createPetStoreClient, listAllPets, nextCursor } from '@petstore-api/client';

const INT64_MAX = 9223372036854775807n;
const options = { baseUrl: process.env.PETSTORE_BASE_URL, apiKey: process.env.PETSTORE_API_KEY };
const petstore = createPetStoreClient(options);

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

/** The global fetch, recording what is sent; the first request's answer can be a 503 instead. */
function unreliableFetch(first = 'sent') {
  const sent = [];
  const fetch = async (request) => {
    sent.push({ method: request.method, idempotencyKey: request.headers.get('Idempotency-Key') });
    if (sent.length > 1 || first === 'sent') return globalThis.fetch(request);
    // 'lost': the server handles the request, but its answer never arrives.
    if (first === 'lost') await (await globalThis.fetch(request)).text();
    const body = JSON.stringify({ code: 'service_unavailable', message: 'Injected.', status: 503 });
    const headers = { 'Content-Type': 'application/json', 'Retry-After': '0' };
    return new globalThis.Response(body, { status: 503, headers });
  };
  return { fetch, sent };
}

// 45 animals of their own status, walked in pages of 20.
await Promise.all(
  Array.from({ length: 45 }, (_, n) =>
    petstore.POST('/pets', { body: { name: `Pending ${n + 1}`, categoryId: 1, status: 'pending' } }),
  ),
);
const walking = unreliableFetch();
const walked = [];
const pendingOnes = listAllPets(createPetStoreClient({ ...options, fetch: walking.fetch }), {
  status: 'pending',
  limit: 20,
});
for await (const pet of pendingOnes) walked.push(pet.name);

const losing = unreliableFetch('lost');
const once = await createPetStoreClient({ ...options, fetch: losing.fetch }).POST('/pets', {
  body: { name: 'Once', categoryId: 1, status: 'available' },
});
const available = [];
for await (const pet of listAllPets(petstore, { status: 'available' })) available.push(pet.name);

const refusing = unreliableFetch('unavailable');
const listed = await createPetStoreClient({ ...options, fetch: refusing.fetch }).GET('/pets', {
  params: { query: { limit: 1 } },
});

const report = {
  created: created.data,
  readBack: readBack.data,
  readBackIsExact: readBack.data.categoryId === INT64_MAX,
  pages,
  missing: { status: missing.response.status, data: missing.data ?? null, error: missing.error },
  walk: { names: walked, requests: walking.sent.length },
  lostCreate: {
    status: once.response.status,
    replayed: once.response.headers.get('Idempotent-Replayed'),
    keys: losing.sent.map(({ idempotencyKey }) => idempotencyKey),
    named: available.filter((name) => name === 'Once').length,
  },
  retryAfterZero: { status: listed.response.status, requests: refusing.sent.length },
};
process.stdout.write(
  JSON.stringify(report, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value)),
);
