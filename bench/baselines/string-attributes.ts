// The table's key builders give plain strings; the low-level client wants them typed.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export const stringAttributes = (values: Record<string, string>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { S: value }]));
