// Bundles every function and baseline exactly as the stack does (lib/bundling.ts) and sizes the
// result. The metafile says what the bytes are made of, package by package, for when a bundle is
// over its target.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { LAMBDA_ESBUILD_OPTIONS } from '#lib/bundling.ts';
import { OUT_DIR, PROJECT_ROOT, bundlePath, entryOf, measureEach } from './subjects.ts';
import type { PerSubject, Subject, Variant } from './subjects.ts';

export type BundleSize = {
  /** The .mjs file Lambda loads; the source map beside it is not counted. */
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

async function bundle(subject: Subject, variant: Variant): Promise<BundleSize> {
  const entry = entryOf(subject, variant);
  const { metafile } = await build({
    ...LAMBDA_ESBUILD_OPTIONS,
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    outfile: bundlePath(subject.name, variant),
    metafile: true,
  });
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith('.mjs'))?.[1];
  if (!output) throw new Error(`esbuild wrote no .mjs for ${entry}`);
  return { bytes: output.bytes, packages: packageBytes(output) };
}

export async function buildBundles(): Promise<PerSubject<BundleSize>> {
  await rm(OUT_DIR, { recursive: true, force: true });
  return measureEach(bundle);
}
