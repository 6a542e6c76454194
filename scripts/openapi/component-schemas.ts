// components.schemas: the zod schemas the handlers validate with, plus the descriptions that only
// the document needs (zod carries none).
import { ErrorBody } from '#shared/api-error.ts';
import { NewPet, Pet, PetStatus } from '#shared/schemas.ts';
import { errorCatalogueTable } from '#scripts/openapi/error-responses.ts';
import type { Json } from '#scripts/openapi/objects.ts';
import { zodComponents } from '#scripts/openapi/zod.ts';

const STATUS_DESCRIPTION = 'Availability of the animal.';

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
  describe('PetStatus', 'Availability of an animal. An animal added without a status is `available`.');
  describe('NewPet', 'An animal to add: exactly these fields; any other field (`id` included) is a 400.', {
    status: `${STATUS_DESCRIPTION} Omitted: \`available\`.`,
  });
  describe('Pet', 'An animal: the fields of NewPet plus its `id`, and no others.', {
    name: 'The name, as it was sent on creation (see NewPet).',
    status: STATUS_DESCRIPTION,
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
