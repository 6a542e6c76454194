// How every Lambda function is bundled, as esbuild's own options. lib/petstore-function.ts hands
// them to NodejsFunction (which turns them back into exactly these esbuild flags) and
// `npm run bench` bundles with them directly, so both measure the same bundles.
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
