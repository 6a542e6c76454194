// The value, or a failure naming what is missing: the lint forbids non-null assertions.
export function defined<T>(value: T | undefined, what = 'a value'): T {
  if (value === undefined) throw new Error(`Missing: ${what}`);
  return value;
}
