// Schemas converted from zod. JSON Schema has no bigint: categoryId (a bigint because bodies are
// parsed int64-exact) is described as the int64 integer it is on the wire. Any other bigint, or
// any other unrepresentable type, stops the generator: it needs a decision, not a guess.
import * as z from 'zod/mini';
import {
  CONTROL_CHARACTER_RANGES as CONTROLS,
  INT64_MAX,
  NAME_MAX_CODE_POINTS,
  PET_ID_MAX,
  PetId,
  PetName,
} from '#shared/schemas.ts';
import { schemaRef } from '#scripts/openapi/objects.ts';
import type { Json } from '#scripts/openapi/objects.ts';

/** int64 from 1; INT64_MAX stays a bigint so the document's text holds its exact digits. */
const CATEGORY_ID_SCHEMA = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: INT64_MAX,
  description:
    `The category's id, an int64 from 1 to ${INT64_MAX}, returned with its exact digits. Read it ` +
    'with a JSON parser that keeps big integers (JavaScript: a JSON.parse reviver that uses ' +
    'context.source, as the package @petstore-api/client does).',
};

const NAME_RULES = {
  minLength: 1,
  maxLength: NAME_MAX_CODE_POINTS,
  // No control character anywhere, and not only whitespace: whitespace that is no control, then one
  // character that is neither, then anything but a control. ECMA-262's \s is exactly the set
  // String.prototype.trim removes. The first two classes are disjoint: one way through, linear time.
  pattern: String.raw`^[^\S${CONTROLS}]*[^\s${CONTROLS}][^${CONTROLS}]*$`,
  description:
    `The animal's name: 1 to ${NAME_MAX_CODE_POINTS} Unicode code points (an emoji is one), not only ` +
    'whitespace, with no control character (U+0000-U+001F, U+007F-U+009F: tab, CR, LF and ESC ' +
    'included). Stored and returned as sent.',
};

const PET_ID_RULES = {
  format: 'int64',
  description:
    `Assigned by the service: unique, never reused, from 1 to ${PET_ID_MAX} (2^53-1), so every ` +
    'JSON client reads it exactly. Not dense, and not in creation order.',
};

/** zod's JSON output cannot hold a bigint (INT64_MAX), so categoryId is filled in after conversion. */
const CATEGORY_ID_PLACEHOLDER = 'categoryId: int64, filled in after conversion';

function bigintAsInt64({ zodSchema, path }: { zodSchema: z.core.$ZodTypes; path: (string | number)[] }) {
  if (zodSchema._zod.def.type === 'bigint' && path.join('.') === 'properties.categoryId') {
    return { $comment: CATEGORY_ID_PLACEHOLDER };
  }
  throw new Error(`No JSON Schema for the ${zodSchema._zod.def.type} at ${path.join('.') || '(root)'}`);
}

function withCategoryId({ $schema: _dialect, $id: _id, ...schema }: Json): Json {
  const properties = schema.properties as Record<string, Json> | undefined;
  const placeholders = JSON.stringify(schema).split(CATEGORY_ID_PLACEHOLDER).length - 1;
  if (placeholders === 0) return schema;
  if (placeholders > 1 || properties?.categoryId?.$comment !== CATEGORY_ID_PLACEHOLDER) {
    throw new Error('categoryId is nested differently than before: place its int64 schema');
  }
  properties.categoryId = { ...CATEGORY_ID_SCHEMA };
  return schema;
}

function addOpenApiDetails({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Json }) {
  if (zodSchema === PetName) Object.assign(jsonSchema, NAME_RULES);
  if (zodSchema === PetId) Object.assign(jsonSchema, PET_ID_RULES);
}

/**
 * Each schema under its component name, with references between them; `io` picks the request or
 * response side.
 */
export function zodComponents(
  io: 'input' | 'output',
  schemas: Record<string, z.ZodMiniType>,
): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: bigintAsInt64,
    override: addOpenApiDetails,
    uri: (id) => schemaRef(id).$ref,
  });
  return Object.fromEntries(
    Object.entries(converted.schemas).map(([name, schema]) => [name, withCategoryId(schema)]),
  );
}
