// What the benchmark measures: the four Lambda functions of the stack, each next to its baseline
// (bench/baselines/), the least code that makes the same single DynamoDB call.
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT_DIR = `${PROJECT_ROOT}bench/.out`;

export type SubjectName = 'listPets' | 'getPet' | 'createPet' | 'authorizer';
export type Variant = 'function' | 'baseline';
export const VARIANTS: Variant[] = ['function', 'baseline'];

export type Subject = {
  name: SubjectName;
  /** Relative to the project root, as the stack names it. */
  entry: string;
  baselineEntry: string;
  /** The one DynamoDB command its baseline sends. */
  baselineCommand: string;
};

export const SUBJECTS: Subject[] = [
  {
    name: 'listPets',
    entry: 'functions/list-pets.ts',
    baselineEntry: 'bench/baselines/list-pets.ts',
    baselineCommand: 'Query',
  },
  {
    name: 'getPet',
    entry: 'functions/get-pet.ts',
    baselineEntry: 'bench/baselines/get-pet.ts',
    baselineCommand: 'GetItem',
  },
  {
    name: 'createPet',
    entry: 'functions/create-pet.ts',
    baselineEntry: 'bench/baselines/create-pet.ts',
    baselineCommand: 'PutItem',
  },
  {
    name: 'authorizer',
    entry: 'functions/authorizer.ts',
    baselineEntry: 'bench/baselines/authorizer.ts',
    baselineCommand: 'GetItem',
  },
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
