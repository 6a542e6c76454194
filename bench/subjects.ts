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
  /** Relative to the project root: the module the stack deploys (lib/petstore-functions.ts). */
  entry: string;
  baselineEntry: string;
  /** The one DynamoDB command its baseline sends. */
  baselineCommand: string;
};

const withBaseline = (name: SubjectName, baselineEntry: string, baselineCommand: string): Subject => ({
  name,
  entry: PETSTORE_FUNCTIONS[name].entry,
  baselineEntry,
  baselineCommand,
});

export const SUBJECTS: Subject[] = [
  withBaseline('listPets', 'bench/baselines/list-pets-baseline.ts', 'Query'),
  withBaseline('getPet', 'bench/baselines/get-pet-baseline.ts', 'GetItem'),
  withBaseline('createPet', 'bench/baselines/create-pet-baseline.ts', 'PutItem'),
  withBaseline('authorizer', 'bench/baselines/authorizer-baseline.ts', 'GetItem'),
];

export const entryOf = (subject: Subject, variant: Variant) =>
  variant === 'function' ? subject.entry : subject.baselineEntry;

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
