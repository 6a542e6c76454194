// The types of api-reference-exact-json.js, the page's own script, for the code and tests that load it.

export function prettyJsonAsWritten(text: string): string;

export function withWrittenIntegers(text: string, written: Map<string, string>): string;

export function exactJsonPlugin(written: [rounded: string, digits: string][]): {
  afterLoad(this: { fn: Record<string, unknown> }): void;
  wrapComponents: Record<string, unknown>;
};
