// How every Lambda function is bundled, as esbuild's own options: the `bundling` block of
// lib/petstore-function.ts translated to esbuild's API (CDK turns that block into exactly these
// flags). One constant, so the stack and `npm run bench` measure the same bundles.
import type { BuildOptions } from 'esbuild';

export const LAMBDA_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  mainFields: ['module', 'main'],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  // Bundle the AWS SDK too: the version the tests ran with, and no extra module loading.
  external: [],
  logLevel: 'warning',
} satisfies BuildOptions;
