// How `npm run test:e2e` runs jest: the `jest` npm script's command with remote.e2e.ts as the only test
// file, and without `npm test`'s global setup (an embedded DynamoDB, a directory of the run's own),
// which a suite aimed at a running API never uses. Run from the repository's root.
export const E2E_JEST_ARGUMENTS = [
  '--experimental-vm-modules',
  '--disable-warning=ExperimentalWarning',
  '-r',
  './scripts/check-node-version.cjs',
  'node_modules/jest/bin/jest.js',
  '--selectProjects',
  'slow',
  '--testMatch',
  '<rootDir>/test/e2e/remote.e2e.ts',
  '--globalSetup=',
  '--globalTeardown=',
];
