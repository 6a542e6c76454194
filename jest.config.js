// middy 7 is ESM-only, so jest runs in ESM mode (see the "jest" script) and @swc/jest only strips
// types; `npm run typecheck` is where types are checked. A test file's name says its tier: one that
// starts a process, drives a browser, reads the synthesized app or runs a load or property sweep is
// `*.slow.test.ts`, and `npm run test:fast` (the seconds between two edits) runs every other one.
import { availableParallelism } from 'node:os';

/** The product's tests under test/, and the bench's beside its sources. */
const testsNamed = (suffix) => ['test', 'bench'].map((folder) => `<rootDir>/${folder}/**/*${suffix}`);
const SLOW = '.slow.test.ts';

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
  testPathIgnorePatterns: ['/node_modules/'],
};

/** @type {import('jest').Config} */
const config = {
  projects: [
    {
      ...project,
      displayName: 'fast',
      testMatch: testsNamed('.test.ts'),
      testPathIgnorePatterns: [...project.testPathIgnorePatterns, `${SLOW.replaceAll('.', '\\.')}$`],
    },
    { ...project, displayName: 'slow', testMatch: testsNamed(SLOW) },
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
