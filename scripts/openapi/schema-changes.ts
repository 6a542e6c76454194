// Which changes to a JSON Schema break v1's clients depends on which way the data flows: a request
// schema may only widen (what a client sends today must still be accepted), a response schema only
// narrow. Decided for v1 (docs/openapi.md): an enum that loses a value breaks either way, one that gains
// a value in a response breaks too (clients switch over it), and a new response field does not.
import { stringifyJson } from '#shared/json.ts';
import { asList, asNode } from '#scripts/openapi/json-nodes.ts';
import type { Node, Resolver } from '#scripts/openapi/json-nodes.ts';

export type SchemaContext = {
  flow: 'request' | 'response';
  label: string;
  resolve: { before: Resolver; after: Resolver };
  /** The pairs of `$ref`s being compared further up, so that recursive schemas end. */
  comparing?: ReadonlySet<string>;
};

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const EXACT = ['const', 'pattern', 'format', 'multipleOf'];

/** Exact digits for int64 bounds (parseJson reads integers as bigints), quotes around strings. */
const shown = (value: unknown) => (value === undefined ? undefined : stringifyJson(value));
const bound = (value: unknown) =>
  typeof value === 'number' || typeof value === 'bigint' ? value : undefined;
const join = (field: string, name: string) => (field === '' ? name : `${field}.${name}`);

/** Members of `from` that `to` lacks (`integer` is within `number`); none when either is unlimited. */
function missing(from: unknown[] | undefined, to: unknown[] | undefined): unknown[] {
  if (!from || !to) return [];
  return from.filter((item) => !to.includes(item) && !(item === 'integer' && to.includes('number')));
}

function valueChanges(b: Node, a: Node, request: boolean): string[] {
  const types = (schema: Node) => (schema.type === undefined ? undefined : [schema.type].flat());
  const values = (schema: Node) => (Array.isArray(schema.enum) ? schema.enum.map(shown) : undefined);
  const [bTypes, aTypes, bEnum, aEnum] = [types(b), types(a), values(b), values(a)];
  const changes = request
    ? missing(bTypes, aTypes).map((type) => `type lost ${shown(type)}`)
    : missing(aTypes, bTypes).map((type) => `type gained ${shown(type)}`);
  if (request ? !bTypes && aTypes : bTypes && !aTypes) {
    changes.push(`type changed from ${shown(bTypes) ?? 'any'} to ${shown(aTypes) ?? 'any'}`);
  }
  changes.push(...missing(bEnum, aEnum).map((value) => `enum lost ${value}`));
  if (!request) changes.push(...missing(aEnum, bEnum).map((value) => `enum gained ${value}`));
  if (request ? !bEnum && aEnum : bEnum && !aEnum) changes.push(`enum ${request ? 'added' : 'removed'}`);
  return changes;
}

function keywordChanges(b: Node, a: Node, request: boolean): string[] {
  const changes: string[] = [];
  for (const key of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const [was, now] = [bound(b[key]), bound(a[key])];
    if (shown(was) === shown(now)) continue;
    const lower = LOWER_BOUNDS.includes(key);
    const raised = was === undefined ? lower : now === undefined ? !lower : now > was;
    if (raised !== (request === lower)) continue; // a request may loosen, a response tighten
    if (was === undefined) changes.push(`${key} added (${now})`);
    else if (now === undefined) changes.push(`${key} removed (was ${was})`);
    else changes.push(`${key} ${raised ? 'raised' : 'lowered'} from ${was} to ${now}`);
  }
  const [wasDefault, nowDefault] = [shown(b.default), shown(a.default)];
  // A client that leaves the value out would get another one.
  if (request && wasDefault !== undefined && nowDefault !== wasDefault) {
    changes.push(`default changed from ${wasDefault} to ${nowDefault ?? 'none'}`);
  }
  for (const key of EXACT) {
    const [was, now] = [shown(b[key]), shown(a[key])];
    if (was === now) continue;
    if (was !== undefined && now !== undefined) changes.push(`${key} changed from ${was} to ${now}`);
    else if (request && now !== undefined) changes.push(`${key} added (${now})`);
    else if (!request && was !== undefined) changes.push(`${key} removed (was ${was})`);
  }
  return changes;
}

function propertyChanges(b: Node, a: Node, context: SchemaContext, field: string): string[] {
  const [bProperties, aProperties] = [asNode(b.properties), asNode(a.properties)];
  const [bRequired, aRequired] = [asList(b.required), asList(a.required)];
  const at = (name: string) => `${context.label} field "${join(field, name)}"`;
  const request = context.flow === 'request';
  const changes: string[] = [];
  for (const [name, schema] of Object.entries(bProperties)) {
    if (!(name in aProperties)) {
      changes.push(`${at(name)} removed`);
      continue;
    }
    const [was, now] = [bRequired.includes(name), aRequired.includes(name)];
    if (request && !was && now) changes.push(`${at(name)} became required`);
    if (!request && was && !now) changes.push(`${at(name)} became optional`);
    changes.push(...schemaChanges(schema, aProperties[name], context, join(field, name)));
  }
  for (const name of request ? aRequired.map(String) : []) {
    if (!(name in bProperties) && !bRequired.includes(name)) changes.push(`${at(name)} is new and required`);
  }
  return changes;
}

/** The changes from `before` to `after` that break a client, each "<label>[ field "<name>"] <what>". */
export function schemaChanges(before: unknown, after: unknown, outer: SchemaContext, field = ''): string[] {
  const refs = [before, after].map((schema) => asNode(schema).$ref);
  const pair = refs.every((ref) => typeof ref === 'string') ? refs.join(' ') : undefined;
  if (pair !== undefined && outer.comparing?.has(pair)) return [];
  const context = pair ? { ...outer, comparing: new Set([...(outer.comparing ?? []), pair]) } : outer;
  const [b, a] = [context.resolve.before(before), context.resolve.after(after)];
  const request = context.flow === 'request';
  const own = [...valueChanges(b, a, request), ...keywordChanges(b, a, request)];
  if (request && b.additionalProperties !== false && a.additionalProperties === false) {
    own.push('no longer accepts other fields');
  }
  const at = field === '' ? context.label : `${context.label} field "${field}"`;
  const changes = [...own.map((change) => `${at} ${change}`), ...propertyChanges(b, a, context, field)];
  if (b.items !== undefined || a.items !== undefined) {
    changes.push(...schemaChanges(b.items ?? {}, a.items ?? {}, context, field && `${field}[]`));
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const [bList, aList] = [asList(b[keyword]), asList(a[keyword])];
    for (const [index, schema] of bList.slice(0, aList.length).entries()) {
      changes.push(...schemaChanges(schema, aList[index], context, field));
    }
    const narrowed = keyword === 'allOf' ? aList.length > bList.length : aList.length < bList.length;
    if (aList.length !== bList.length && narrowed === request) {
      changes.push(`${at} ${keyword} went from ${bList.length} to ${aList.length} schemas`);
    }
  }
  return changes;
}
