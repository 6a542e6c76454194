// Reading a parsed OpenAPI document without trusting its shape: objects, lists, and `$ref`s
// followed within the document they belong to (one resolver per document, since comparing two
// documents means following each one's references in itself).

export type Node = Record<string, unknown>;
export type Resolver = (value: unknown) => Node;

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const asNode = (value: unknown): Node => (isNode(value) ? value : {});
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Follows `$ref`s into `document`; the referring object's siblings (a description) win. */
export const resolver =
  (document: unknown): Resolver =>
  (value) => {
    if (!isNode(value) || typeof value.$ref !== 'string') return asNode(value);
    const { $ref, ...siblings } = value;
    const keys = $ref.replace(/^#\//, '').split('/');
    const unescape = (key: string) => key.replaceAll('~1', '/').replaceAll('~0', '~');
    const target = keys.reduce<unknown>((node, key) => asNode(node)[unescape(key)], document);
    if (!isNode(target)) throw new Error(`Cannot resolve $ref ${$ref}`);
    return { ...resolver(document)(target), ...siblings };
  };
