// JSON.rawJSON (ES2025, Node.js 22+) is not yet in TypeScript's standard library; exact-json.ts
// writes bigints with it. Store clients need no such declaration: no shipped type mentions rawJSON.
interface JSON {
  rawJSON(text: string): unknown;
}
