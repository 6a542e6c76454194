// How every Lambda function is bundled, as esbuild's own options, so that the benchmark can bundle
// exactly what is deployed: NodejsFunction turns them back into exactly these esbuild flags. What
// each choice saves is measured in docs/performance.md.
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** The credential chain of a Lambda bundle: see functions/lambda-credentials.ts. */
const LAMBDA_CREDENTIALS = fileURLToPath(new URL('../../functions/lambda-credentials.ts', import.meta.url));

export const LAMBDA_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  // CommonJS, which the Lambda runtime loads with require(). An ES module bundle imports Node's
  // built-ins as ES modules, and building one's ES module namespace runs every lazy getter of the
  // built-in: `node:http` alone then loads the whole fetch implementation (undici) at every cold
  // start. The sources are still ES modules, so tree shaking is the same.
  format: 'cjs',
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  // Written for reading a stack trace by hand; not loaded at run time (no --enable-source-maps:
  // Node would read and index the whole map when it loads the bundle, at every cold start).
  sourcemap: true,
  sourcesContent: false,
  alias: { '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS },
  // Bundle the AWS SDK too: the version the tests ran with, and no extra module loading.
  external: [],
  logLevel: 'warning',
} satisfies BuildOptions;
