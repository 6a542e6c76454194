// createPet: POST /v1/pets with a NewPet; 201 with the Animal and its Location.
import { httpEndpoint } from '#shared/http/endpoint.ts';
import { created } from '#shared/http/responses.ts';
import { petLocation } from '#shared/http/routes.ts';
import { NewPet } from '#shared/schemas.ts';
import { petStore } from '#shared/store/dynamodb-pet-store.ts';

export const handler = httpEndpoint({ body: NewPet }, async ({ body }) => {
  const pet = await petStore.create(body);
  return created(pet, { Location: petLocation(pet.id) });
});
