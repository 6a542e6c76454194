// Sorts the test files (the product's under test/, the bench's beside its sources) into jest's two
// projects by what they import, so that a new test lands in its tier by itself: a file that can reach
// a child process, a browser or a synthesis (through any chain of imports, type-only ones aside) is
// in the full tier; every other file is in the fast tier.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** What makes a test slow: each package or module, and the reason a reader of the tier sees. */
const SLOW_IMPORTS: Record<string, string> = {
  'node:child_process': 'starts a child process',
  'puppeteer-core': 'drives a browser',
  'aws-cdk-lib/assertions': 'synthesizes a stack',
};

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*([^)]*)\)/g;

/** Where the test files are: the product's tests, and the bench workspace's beside its sources. */
const TEST_FOLDERS = ['test', 'bench'];

type PackageImports = { dir: string; imports: Record<string, string> };

/** Resolves `#name/...` as Node does: by the `imports` of the package.json nearest the importer. */
export function packageImports() {
  const known = new Map<string, PackageImports>();
  const nearest = (dir: string): PackageImports => {
    let found = known.get(dir);
    if (!found) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest))
        found = {
          dir,
          imports: (JSON.parse(readFileSync(manifest, 'utf8')) as PackageImports).imports ?? {},
        };
      else found = dirname(dir) === dir ? { dir, imports: {} } : nearest(dirname(dir));
      known.set(dir, found);
    }
    return found;
  };
  return (importer: string, specifier: string): string | undefined => {
    const { dir, imports } = nearest(dirname(importer));
    const alias = Object.keys(imports).find((name) => specifier.startsWith(name.replace('*', '')));
    if (!alias) return undefined;
    return join(dir, (imports[alias] ?? '').replace('*', specifier.slice(alias.length - 1)));
  };
}
export type Resolve = ReturnType<typeof packageImports>;

/** The files and packages a source file imports at run time; `dynamic` when one name is computed. */
export function importsOf(file: string, resolveAlias: Resolve) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(IMPORT)].map(([, specifier]) => specifier ?? '');
  let dynamic = false;
  for (const [, argument = ''] of text.matchAll(DYNAMIC_IMPORT)) {
    const literal = /^['"]([^'"]+)['"]$/.exec(argument.trim());
    if (literal?.[1]) specifiers.push(literal[1]);
    else if (argument.trim()) dynamic = true;
  }
  const targets = specifiers.map((specifier) => {
    if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
    return specifier.startsWith('#') ? (resolveAlias(file, specifier) ?? specifier) : specifier;
  });
  return { targets, dynamic };
}

/** Why this test file belongs in the full tier, or undefined when it belongs in the fast one. */
function slowReason(
  file: string,
  resolveAlias: Resolve,
  root: string,
  seen = new Set<string>(),
): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const { targets, dynamic } = importsOf(file, resolveAlias);
  const where = relative(root, file).split('\\').join('/');
  if (dynamic) return `imports a computed module name (${where})`;
  for (const target of targets) {
    // A built-in is named with or without its node: prefix.
    const reason = SLOW_IMPORTS[isBuiltin(target) ? `node:${target.replace(/^node:/, '')}` : target];
    if (reason) return `${reason} (${where})`;
    if (target.startsWith(root) && /\.[cm]?[jt]s$/.test(target)) {
      const inner = slowReason(target, resolveAlias, root, seen);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Every test file, sorted into the fast and the full tier (with each one's reason). */
export function testTiers(root: string) {
  const resolveAlias = packageImports();
  const files = TEST_FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts') && !file.split(/[/\\]/).includes('node_modules'))
      .map((file) => `${folder}/${file.split('\\').join('/')}`),
  );
  const full = new Map<string, string>();
  const fast: string[] = [];
  for (const file of files.sort()) {
    const reason = slowReason(join(root, file), resolveAlias, root);
    if (reason) full.set(file, reason);
    else fast.push(file);
  }
  return { fast, full };
}
