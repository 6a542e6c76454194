// What the benchmark measures: the four Lambda functions of the stack, each next to its baseline
// (bench/baselines/), the least code that makes the same single DynamoDB call.
import { fileURLToPath } from 'node:url';
import { PETSTORE_FUNCTIONS } from '#lib/petstore-functions.ts';
import type { PetstoreFunctionName } from '#lib/petstore-functions.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT_DIR = `${PROJECT_ROOT}bench/.out`;

export type SubjectName = PetstoreFunctionName;
export type Variant = 'function' | 'baseline';
export const VARIANTS: Variant[] = ['function', 'baseline'];

export type Subject = {
  name: SubjectName;
  /** Relative to the project root, as the function's own entry is (lib/petstore-functions.ts). */
  baselineEntry: string;
  /** The one DynamoDB command its baseline sends. */
  baselineCommand: string;
};

export const SUBJECTS: Subject[] = [
  { name: 'listPets', baselineEntry: 'bench/baselines/list-pets-baseline.ts', baselineCommand: 'Query' },
  { name: 'getPet', baselineEntry: 'bench/baselines/get-pet-baseline.ts', baselineCommand: 'GetItem' },
  { name: 'createPet', baselineEntry: 'bench/baselines/create-pet-baseline.ts', baselineCommand: 'PutItem' },
  { name: 'authorizer', baselineEntry: 'bench/baselines/authorizer-baseline.ts', baselineCommand: 'GetItem' },
];

/** The module the stack deploys, or its baseline, relative to the project root. */
export const entryOf = (subject: Subject, variant: Variant) =>
  variant === 'function' ? PETSTORE_FUNCTIONS[subject.name].entry : subject.baselineEntry;

export const bundlePath = (subject: SubjectName, variant: Variant) =>
  `${OUT_DIR}/${subject}/${variant}/index.mjs`;

/** A figure for a function and the same figure for its baseline. */
export type Paired<T> = Record<Variant, T>;
export type PerSubject<T> = Record<SubjectName, Paired<T>>;

/** Measures every subject's function and baseline, one after the other (never two at once). */
export async function measureEach<T>(
  measure: (subject: Subject, variant: Variant) => Promise<T>,
): Promise<PerSubject<T>> {
  const results: Partial<PerSubject<T>> = {};
  for (const subject of SUBJECTS) {
    const pair: Partial<Paired<T>> = {};
    for (const variant of VARIANTS) pair[variant] = await measure(subject, variant);
    results[subject.name] = pair as Paired<T>;
  }
  return results as PerSubject<T>;
}
