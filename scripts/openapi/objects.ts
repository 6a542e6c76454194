// The pieces every part of the document is built from, shared so that a reference or a media type
// is spelled one way throughout.

export type Json = Record<string, unknown>;

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const jsonContent = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined && { example }) },
});
