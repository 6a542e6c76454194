// components.schemas: the zod schemas the handlers validate with, plus the descriptions that only
// the document needs (zod carries none).
import { ErrorBody } from '#shared/api-error.ts';
import { NewPet, Pet, PetStatus } from '#shared/schemas.ts';
import { errorCatalogueTable } from '#scripts/openapi/error-responses.ts';
import type { Json } from '#scripts/openapi/objects.ts';
import { zodComponents } from '#scripts/openapi/zod.ts';

export function componentSchemas(): Record<string, Json> {
  const schemas = {
    ...zodComponents('input', { PetStatus, NewPet }),
    ...zodComponents('output', { PetStatus, Pet, Error: ErrorBody }),
  };
  const describe = (name: string, description: string, properties: Record<string, string> = {}) => {
    const schema = schemas[name] as Json & { properties?: Record<string, Json> };
    schema.description = description;
    for (const [property, text] of Object.entries(properties))
      Object.assign(schema.properties?.[property] ?? {}, { description: text });
  };
  describe('PetStatus', 'Availability of an animal.');
  describe('NewPet', 'An animal to add. Any other field, `id` included, is a 400.', {
    status: 'Omitted: `available`.',
  });
  describe('Pet', 'An animal: the fields of NewPet and its `id`, no others.', {
    name: 'The name as it was sent (see NewPet).',
  });
  describe(
    'Error',
    `Every non-2xx response, API Gateway's own included. Codes:\n\n${errorCatalogueTable()}`,
    {
      code: 'Machine-readable error code (see the table above).',
      message: 'For humans: names the offending field or parameter (`name: ...`, `limit: ...`).',
      status: 'The HTTP status code of the response.',
    },
  );
  return schemas;
}
