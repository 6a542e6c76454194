// The v1 gate: openapi.json may only add to the released openapi.v1-baseline.json. Each case edits a
// copy of the baseline by hand and checks what the gate names, or that it lets the edit through.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parseJson } from '#shared/json.ts';
import { BASELINE_PATH, breakingChanges, v1BreakingChanges } from '#scripts/openapi/breaking-changes.ts';
import { asList, asNode, isNode, resolver } from '#scripts/openapi/json-nodes.ts';
import type { Node } from '#scripts/openapi/json-nodes.ts';
import { schemaChanges } from '#scripts/openapi/schema-changes.ts';

const baselineText = readFileSync(BASELINE_PATH, 'utf8');
const baseline = parseJson(baselineText);

type At = (...keys: string[]) => Node;

/** A copy of the baseline after `edit`, which reaches objects with `at` (a wrong key throws). */
function edited(edit: (at: At) => void): Node {
  const document = asNode(structuredClone(baseline));
  const at: At = (...keys) =>
    keys.reduce((node, key) => {
      const next = node[key];
      if (!isNode(next)) throw new Error(`No object at ${keys.join(' > ')}`);
      return next;
    }, document);
  edit(at);
  return document;
}

const changesAfter = (edit: (at: At) => void) => breakingChanges(baseline, edited(edit));
const petProperty = (at: At, name: string) => at('components', 'schemas', 'Pet', 'properties', name);

describe('openapi.json against the released v1', () => {
  it('breaks nothing', () => {
    const changes = v1BreakingChanges();
    // Thrown rather than diffed so that each change reads as written, one a line.
    if (changes.length > 0) {
      throw new Error(
        `${changes.join('\n')}\nUndo the change, or release the baseline on purpose: docs/openapi.md`,
      );
    }
    expect(changes).toEqual([]);
  });

  it('passes against itself, and each change is named after "openapi.json breaks v1: "', () => {
    expect(breakingChanges(baseline, baseline)).toEqual([]);
    const withoutGetPet = edited((at) => delete at('paths')['/pets/{petId}']);
    expect(v1BreakingChanges(withoutGetPet)).toEqual([
      'openapi.json breaks v1: GET /pets/{petId}: operation removed',
    ]);
  });

  it('compares int64 bounds exactly: categoryId lowered by one, which JSON.parse cannot tell apart', () => {
    expect(JSON.parse('9223372036854775807')).toBe(JSON.parse('9223372036854775806'));
    const lowered = baselineText.replace(
      /("categoryId": \{[^}]*"maximum": )9223372036854775807/,
      '$19223372036854775806',
    );
    expect(breakingChanges(baseline, parseJson(lowered))).toEqual([
      'POST /pets: request body field "categoryId" maximum lowered from 9223372036854775807 to 9223372036854775806',
    ]);
  });
});

describe('the gate names each breaking change', () => {
  it('a removed response field, in every response that has it', () => {
    const changes = changesAfter((at) => {
      delete at('components', 'schemas', 'Pet', 'properties').name;
      const pet = at('components', 'schemas', 'Pet');
      pet.required = asList(pet.required).filter((name) => name !== 'name');
    });
    expect(changes).toEqual([
      'GET /pets: response 200 field "name" removed',
      'POST /pets: response 201 field "name" removed',
      'GET /pets/{petId}: response 200 field "name" removed',
    ]);
  });

  it('a new required parameter, and a renamed one', () => {
    const changes = changesAfter((at) => {
      const parameters = asList(at('paths', '/pets', 'get').parameters).map(asNode);
      for (const parameter of parameters) if (parameter.name === 'cursor') parameter.name = 'after';
      parameters.push({ name: 'storeId', in: 'query', required: true, schema: { type: 'string' } });
      at('paths', '/pets', 'get').parameters = parameters;
    });
    expect(changes).toEqual([
      'GET /pets: query parameter "cursor" removed',
      'GET /pets: new required query parameter "storeId"',
    ]);
  });

  it('the status enum losing "sold", in requests and responses alike', () => {
    const changes = changesAfter((at) => {
      at('components', 'schemas', 'PetStatus').enum = ['available', 'pending'];
    });
    expect(changes).toEqual([
      'GET /pets: query parameter "status" enum lost "sold"',
      'GET /pets: response 200 field "status" enum lost "sold"',
      'POST /pets: request body field "status" enum lost "sold"',
      'POST /pets: response 201 field "status" enum lost "sold"',
      'GET /pets/{petId}: response 200 field "status" enum lost "sold"',
    ]);
  });

  it('the status enum gaining a value: safe in requests, breaking in responses', () => {
    const changes = changesAfter((at) => {
      at('components', 'schemas', 'PetStatus').enum = ['available', 'pending', 'sold', 'adopted'];
    });
    expect(changes).toEqual([
      'GET /pets: response 200 field "status" enum gained "adopted"',
      'POST /pets: response 201 field "status" enum gained "adopted"',
      'GET /pets/{petId}: response 200 field "status" enum gained "adopted"',
    ]);
  });

  it('a removed operation, and a renamed one', () => {
    const changes = changesAfter((at) => {
      delete at('paths')['/pets/{petId}'];
      at('paths', '/pets', 'get').operationId = 'findPets';
    });
    expect(changes).toEqual([
      'GET /pets: operationId changed from "listPets" to "findPets"',
      'GET /pets/{petId}: operation removed',
    ]);
  });

  it('a changed or removed response status, a removed or optional header, a removed media type', () => {
    const changes = changesAfter((at) => {
      const responses = at('paths', '/pets', 'post', 'responses');
      responses['200'] = responses['201'];
      delete responses['201'];
      delete at('paths', '/pets', 'get', 'responses')['503'];
      const headers = at('paths', '/pets/{petId}', 'get', 'responses', '200', 'headers');
      delete headers.Sunset;
      headers.Link = { schema: { type: 'string', const: '</v1/pets>; rel="successor-version"' } };
      const content = at('paths', '/pets', 'post', 'requestBody', 'content');
      content['application/merge-patch+json'] = content['application/json'];
      delete content['application/json'];
    });
    expect(changes).toEqual([
      'GET /pets: response 503 removed',
      'POST /pets: request body media type "application/json" removed',
      'POST /pets: response 201 removed (added: 200)',
      'GET /pets/{petId}: response 200 header "Sunset" removed',
      'GET /pets/{petId}: response 200 header "Link" became optional',
    ]);
  });

  it('narrowed request bounds, a changed default, an optional request field becoming required', () => {
    const changes = changesAfter((at) => {
      const newPet = at('components', 'schemas', 'NewPet');
      newPet.required = [...asList(newPet.required), 'status'];
      at('components', 'schemas', 'NewPet', 'properties', 'name').maxLength = 99n;
      const [limit] = asList(at('paths', '/pets', 'get').parameters).map(asNode);
      if (limit) limit.schema = { ...asNode(limit.schema), minimum: 2n, default: 10n };
    });
    expect(changes).toEqual([
      'GET /pets: query parameter "limit" minimum raised from 1 to 2',
      'GET /pets: query parameter "limit" default changed from 20 to 10',
      'POST /pets: request body field "name" maxLength lowered from 100 to 99',
      'POST /pets: request body field "status" became required',
    ]);
  });

  it('a type removed from a request union, and one added to a response union', () => {
    const nullableName = edited((at) => {
      at('components', 'schemas', 'NewPet', 'properties', 'name').type = ['string', 'null'];
    });
    expect(breakingChanges(baseline, nullableName)).toEqual([]);
    expect(breakingChanges(nullableName, baseline)).toEqual([
      'POST /pets: request body field "name" type lost "null"',
    ]);
    expect(changesAfter((at) => (petProperty(at, 'id').type = ['integer', 'null']))).toEqual([
      'GET /pets: response 200 field "id" type gained "null"',
      'POST /pets: response 201 field "id" type gained "null"',
      'GET /pets/{petId}: response 200 field "id" type gained "null"',
    ]);
  });

  it('a response field becoming optional, a raised response bound, a changed error const', () => {
    const changes = changesAfter((at) => {
      at('components', 'schemas', 'Pet').required = ['id', 'name', 'categoryId'];
      petProperty(at, 'id').maximum = 9223372036854775807n;
      const error = at('paths', '/pets/{petId}', 'get', 'responses', '400', 'content', 'application/json');
      const [, narrowed] = asList(asNode(error.schema).allOf).map(asNode);
      asNode(asNode(narrowed?.properties).status).const = 422n;
    });
    const raised = 'field "id" maximum raised from 9007199254740991 to 9223372036854775807';
    expect(changes).toEqual([
      `GET /pets: response 200 ${raised}`,
      'GET /pets: response 200 field "status" became optional',
      `POST /pets: response 201 ${raised}`,
      'POST /pets: response 201 field "status" became optional',
      `GET /pets/{petId}: response 200 ${raised}`,
      'GET /pets/{petId}: response 200 field "status" became optional',
      'GET /pets/{petId}: response 400 field "status" const changed from 400 to 422',
    ]);
  });
});

describe('the gate lets additive changes through', () => {
  const added = edited((at) => {
    const list = at('paths', '/pets', 'get');
    list.parameters = [...asList(list.parameters), { name: 'sort', in: 'query', schema: { type: 'string' } }];
    at('paths', '/pets/{petId}').delete = {
      operationId: 'deletePet',
      parameters: at('paths', '/pets/{petId}', 'get').parameters,
      responses: { '204': { description: 'Removed.' } },
    };
    at('components', 'schemas', 'Pet', 'properties').tag = { type: 'string' };
    at('components', 'schemas', 'NewPet', 'properties').tag = { type: 'string' };
    at('components', 'schemas', 'NewPet', 'properties', 'name').maxLength = 200n;
    at('paths', '/pets/{petId}', 'get', 'responses')['410'] = { description: 'Gone.' };
    at('paths', '/pets', 'get', 'responses', '200', 'headers')['X-Total-Count'] = {
      schema: { type: 'integer' },
    };
    at('paths', '/pets', 'post', 'requestBody').required = false;
  });

  it('a new optional parameter, operation, request or response field, status or header; a looser request', () => {
    expect(breakingChanges(baseline, added)).toEqual([]);
  });

  it('while taking each of them back again breaks v1', () => {
    expect(breakingChanges(added, baseline)).toEqual([
      'GET /pets: query parameter "sort" removed',
      'GET /pets: response 200 header "X-Total-Count" removed',
      'GET /pets: response 200 field "tag" removed',
      'POST /pets: request body became required',
      'POST /pets: request body field "name" maxLength lowered from 200 to 100',
      'POST /pets: request body field "tag" removed',
      'POST /pets: response 201 field "tag" removed',
      'GET /pets/{petId}: response 200 field "tag" removed',
      'GET /pets/{petId}: response 410 removed',
      'DELETE /pets/{petId}: operation removed',
    ]);
  });
});

describe('the schema rules the document does not exercise yet', () => {
  const compare = (flow: 'request' | 'response', before: Node, after: Node) =>
    schemaChanges(before, after, {
      flow,
      label: 'body',
      resolve: { before: resolver({}), after: resolver({}) },
    });
  const [text, number] = [{ type: 'string' }, { type: 'number' }];

  it('a union losing a variant breaks a request, gaining one breaks a response', () => {
    expect(compare('request', { anyOf: [text, number] }, { anyOf: [text] })).toEqual([
      'body anyOf went from 2 to 1 schemas',
    ]);
    expect(compare('response', { anyOf: [text, number] }, { anyOf: [text] })).toEqual([]);
    expect(compare('response', { oneOf: [text] }, { oneOf: [text, number] })).toEqual([
      'body oneOf went from 1 to 2 schemas',
    ]);
    expect(compare('response', { allOf: [text, { minLength: 1n }] }, { allOf: [text] })).toEqual([
      'body allOf went from 2 to 1 schemas',
    ]);
  });

  it('fields of array items, new required request fields, closed request objects', () => {
    const list = (item: Node) => ({ type: 'object', properties: { tags: { type: 'array', items: item } } });
    expect(compare('response', list(text), list({ type: ['string', 'number'] }))).toEqual([
      'body field "tags[]" type gained "number"',
    ]);
    expect(
      compare(
        'request',
        { type: 'object', properties: { name: text } },
        {
          type: 'object',
          properties: { name: text, owner: text },
          required: ['owner'],
          additionalProperties: false,
        },
      ),
    ).toEqual(['body no longer accepts other fields', 'body field "owner" is new and required']);
  });

  it('a recursive schema is compared once, not forever', () => {
    const tree = (fields: Node) => ({
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { ...fields, children: { items: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    });
    const [before, after] = [tree({ name: text }), tree({})];
    const changes = schemaChanges(
      { $ref: '#/components/schemas/Node' },
      { $ref: '#/components/schemas/Node' },
      { flow: 'response', label: 'body', resolve: { before: resolver(before), after: resolver(after) } },
    );
    expect(changes).toEqual(['body field "name" removed']);
  });
});
