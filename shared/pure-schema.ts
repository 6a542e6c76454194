// Declares a zod schema so that a bundle that never uses it leaves it out. zod builds a schema's
// internals when it is declared, so at import every function would build every schema of the
// module, though each validates with one or two: 2 ms of a cold start, and the zod code of the
// others. esbuild drops a call marked pure whose result is unused, and the arrow function given
// to it has no effect of its own: so write `/* @__PURE__ */ pureSchema(() => z.…)`.
export const pureSchema = <T>(build: () => T): T => build();
