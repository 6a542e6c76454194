// Bundles every function, baseline and floor exactly as the stack does (lib/functions/bundling.ts), and the
// baselines once more as NodejsFunction does by default, and sizes the result. The metafile says
// what the bytes are made of, package by package, for when a bundle is over its target.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import type { BuildOptions, Metafile } from 'esbuild';
import { LAMBDA_ESBUILD_OPTIONS } from '../../lib/functions/bundling.ts';
import { OUT_DIR, PROJECT_ROOT, bundlePath, entryOf, measureEach } from '#bench/subjects.ts';
import type { PerSubject, Subject, Variant } from '#bench/subjects.ts';

export type BundleSize = {
  /** The .js file Lambda loads; the source map beside it is not counted. */
  bytes: number;
  /** Bytes in the output per package (the project's own code as "(project)"), largest first. */
  packages: { name: string; bytes: number }[];
};

/** node_modules/@scope/name/... -> @scope/name; node_modules/name/... -> name. */
function packageOf(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match?.[1] ?? '(project)';
}

function packageBytes(output: Metafile['outputs'][string]) {
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).toSorted((a, b) => b.bytes - a.bytes);
}

/**
 * What NodejsFunction runs when given no bundling options, for nodejs24.x (aws-cdk-lib's
 * aws-lambda-nodejs bundling): CommonJS (esbuild's default for Node), not minified, no source
 * map, and the AWS SDK left out for the runtime's own copy, which Node then loads file by file
 * from node_modules (here the project's, in Lambda the runtime's).
 */
const CDK_DEFAULT_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  external: ['@aws-sdk/*'],
  logLevel: 'warning',
} satisfies BuildOptions;

/** The floor: the baseline, bundled as the stack bundles, its SDK client swapped for requests by hand. */
const FLOOR_ESBUILD_OPTIONS = {
  ...LAMBDA_ESBUILD_OPTIONS,
  alias: { ...LAMBDA_ESBUILD_OPTIONS.alias, '@aws-sdk/client-dynamodb': './bench/floors/sdk-free-client.ts' },
} satisfies BuildOptions;

const OPTIONS: Record<Variant, BuildOptions> = {
  function: LAMBDA_ESBUILD_OPTIONS,
  baseline: LAMBDA_ESBUILD_OPTIONS,
  cdkDefault: CDK_DEFAULT_ESBUILD_OPTIONS,
  floor: FLOOR_ESBUILD_OPTIONS,
};

async function bundle(subject: Subject, variant: Variant): Promise<BundleSize> {
  const entry = entryOf(subject, variant);
  const { metafile } = await build({
    ...OPTIONS[variant],
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    outfile: bundlePath(subject.name, variant),
    metafile: true,
  });
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith('.js'))?.[1];
  if (!output) throw new Error(`esbuild wrote no .js for ${entry}`);
  return { bytes: output.bytes, packages: packageBytes(output) };
}

export async function buildBundles(): Promise<PerSubject<BundleSize>> {
  await rm(OUT_DIR, { recursive: true, force: true });
  // In Lambda nothing above the bundle says "type": "module", as this project's package.json does.
  await mkdir(OUT_DIR, { recursive: true });
  await writeFile(`${OUT_DIR}/package.json`, '{ "type": "commonjs" }\n');
  return measureEach(bundle);
}
