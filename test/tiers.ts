// Sorts the test files into jest's two projects by what they import, so that a new test lands in its
// tier by itself: a file that can reach a child process, a browser or a synthesis (through any chain
// of imports, type-only ones aside) is in the full tier; every other file is in the fast tier.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What makes a test slow: each package or module, and the reason a reader of the tier sees. */
export const SLOW_IMPORTS: Record<string, string> = {
  'node:child_process': 'starts a child process',
  'puppeteer-core': 'drives a browser',
  'aws-cdk-lib/assertions': 'synthesizes a stack',
};

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*([^)]*)\)/g;

/** The files and packages a source file imports at run time; `dynamic` when one name is computed. */
function importsOf(file: string, aliases: Record<string, string>, root: string) {
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
    const alias = Object.keys(aliases).find((name) => specifier.startsWith(name.replace('*', '')));
    if (alias) return join(root, (aliases[alias] ?? '').replace('*', specifier.slice(alias.length - 1)));
    return specifier;
  });
  return { targets, dynamic };
}

/** Why this test file belongs in the full tier, or undefined when it belongs in the fast one. */
function slowReason(
  file: string,
  aliases: Record<string, string>,
  root: string,
  seen = new Set<string>(),
): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const { targets, dynamic } = importsOf(file, aliases, root);
  if (dynamic) return `imports a computed module name (${relative(root, file)})`;
  for (const target of targets) {
    const reason = SLOW_IMPORTS[target] ?? SLOW_IMPORTS[target.replace(/^node:/, '')];
    if (reason) return `${reason} (${relative(root, file)})`;
    if (target.startsWith(root) && /\.[cm]?[jt]s$/.test(target)) {
      const inner = slowReason(target, aliases, root, seen);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Every test file under test/, sorted into the fast and the full tier (with each one's reason). */
export function testTiers(root: string) {
  const aliases = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports: object })
    .imports as Record<string, string>;
  const files = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file.split('\\').join('/')}`);
  const full = new Map<string, string>();
  const fast: string[] = [];
  for (const file of files.sort()) {
    const reason = slowReason(join(root, file), aliases, root);
    if (reason) full.set(file, reason);
    else fast.push(file);
  }
  return { fast, full };
}
