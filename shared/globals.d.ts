// JSON.rawJSON (ES2025, Node 21+) is not yet in TypeScript's standard library.
interface JSON {
  rawJSON(text: string): unknown;
}
