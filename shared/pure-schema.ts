// Declares a zod schema so that a bundle that never uses it leaves it out: zod builds a schema's
// internals when it is declared, so at import every function would build every schema of the module
// though each validates with one or two. esbuild drops an unused call marked pure, and the arrow
// function has no effect of its own: write `/* @__PURE__ */ pureSchema(() => z.…)`.
export const pureSchema = <T>(build: () => T): T => build();
