// npm 11 runs a dependency's install script only where package.json's `allowScripts` says so, and
// warns after `npm ci` about every package it has no entry for. Each one the lock file marks is
// decided (denied: docs/local.md says why none is needed), so the install warns about none, and a
// new package with an install script fails here until someone decides.
import { describe, expect, it } from '@jest/globals';
import { readRepoJson } from '#test/support/repository.ts';

const { allowScripts = {} } = readRepoJson('package.json') as { allowScripts?: Record<string, boolean> };
const { packages } = readRepoJson('package-lock.json') as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** The dependencies with an install script, by name (the lock file's key ends with it). */
const withInstallScripts = Object.entries(packages)
  .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
  .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

describe("dependencies' install scripts", () => {
  it('are each decided in allowScripts', () => {
    expect(withInstallScripts.length).toBeGreaterThan(0);
    expect(withInstallScripts.filter((name) => !Object.hasOwn(allowScripts, name))).toEqual([]);
  });

  it('are all denied, none being needed (docs/local.md says why)', () => {
    expect(Object.entries(allowScripts).filter(([, allowed]) => allowed)).toEqual([]);
    expect(Object.keys(allowScripts).sort()).toEqual([...new Set(withInstallScripts)].sort());
  });
});
