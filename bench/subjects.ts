// What the benchmark measures: the four Lambda functions of the stack, each next to its baseline
// (bench/baselines/: the least code that makes the same single DynamoDB call with the AWS SDK, bundled
// the same way). Two references stand beside them, measured but not targeted: the baseline as CDK's
// NodejsFunction bundles it by default, and the floor: the baseline with the SDK swapped for bench/floors/.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTION_MANIFESTS, FUNCTION_NAMES } from '../functions/manifests.ts';
import type { FunctionName } from '../functions/manifests.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT_DIR = `${PROJECT_ROOT}bench/.out`;

export type SubjectName = FunctionName;
export type Variant = 'function' | 'baseline' | 'cdkDefault' | 'floor';
/** The order each subject's processes run in, one after the other: A B A B ... */
export const VARIANTS: Variant[] = ['function', 'baseline', 'cdkDefault', 'floor'];

export type Subject = {
  name: SubjectName;
  /** Relative to the project root, as the function's own entry is (functions/manifests.ts). */
  baselineEntry: string;
};

const subject = (name: SubjectName, file: string): Subject => ({
  name,
  baselineEntry: `bench/baselines/${file}.ts`,
});

/** Every function of functions/manifests.ts; its baseline is named like its module. */
export const SUBJECTS: Subject[] = FUNCTION_NAMES.map((name) =>
  subject(name, basename(FUNCTION_MANIFESTS[name].entry, '.ts')),
);

/** The module a variant bundles, relative to the project root. */
export function entryOf(subject: Subject, variant: Variant): string {
  switch (variant) {
    case 'function':
      return FUNCTION_MANIFESTS[subject.name].entry;
    case 'baseline':
    case 'cdkDefault':
    case 'floor':
      return subject.baselineEntry;
  }
}

/** Every bundle is CommonJS, as NodejsFunction names it (bench/.out/package.json says so). */
export const bundlePath = (subject: SubjectName, variant: Variant) =>
  `${OUT_DIR}/${subject}/${variant}/index.js`;

/** A figure for a function, its baseline and the references. */
export type ByVariant<T> = Record<Variant, T>;
export type PerSubject<T> = Record<SubjectName, ByVariant<T>>;

/** Measures every subject's variants, one after the other (never two at once). */
export async function measureEach<T>(
  measure: (subject: Subject, variant: Variant) => Promise<T>,
): Promise<PerSubject<T>> {
  const results: Partial<PerSubject<T>> = {};
  for (const subject of SUBJECTS) {
    const sides: Partial<ByVariant<T>> = {};
    for (const variant of VARIANTS) sides[variant] = await measure(subject, variant);
    results[subject.name] = sides as ByVariant<T>;
  }
  return results as PerSubject<T>;
}
