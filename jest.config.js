// middy 7 is ESM-only, so jest runs in ESM mode (see the "jest" script) and @swc/jest only strips
// types; `npm run typecheck` is where types are checked. Two projects: test/tiers.ts sorts the files
// into the fast tier (`npm run test:fast`, for the seconds between two edits) and the full one.
import { availableParallelism } from 'node:os';
import { testTiers } from './test/tiers.ts';

const { fast, full } = testTiers(import.meta.dirname);

const inRoot = (file) => `<rootDir>/${file}`;

/** What both tiers share: only the files differ. */
const project = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2024' }, module: { type: 'es6' } },
    ],
  },
  setupFiles: ['<rootDir>/test/support/test-env.ts'],
};

/** @type {import('jest').Config} */
const config = {
  projects: [
    { ...project, displayName: 'fast', testMatch: fast.map(inRoot) },
    { ...project, displayName: 'full', testMatch: [...full.keys()].map(inRoot) },
  ],
  testSequencer: '<rootDir>/test/sequencer.js',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30_000,
  // Many tests wait on a child process, a socket or a timer: one worker more than the cores keeps
  // them busy (jest's own default, one fewer, runs a 2-core machine's tests one file at a time).
  maxWorkers: availableParallelism() + 1,
};

export default config;
