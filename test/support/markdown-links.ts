// The links of a Markdown file and whether each resolves inside the repository: a file that
// exists, and for `#fragment`s a heading of that file (GitHub's anchors). A clone is all a reader
// has, so a link with a scheme or one that climbs out of the repository is a problem too.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Folders that hold no Markdown of the project's own. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  'cdk.out',
  'dist',
  'coverage',
  '.out',
  '.petstore-data',
]);

export function markdownFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : markdownFiles(root, path);
    return entry.name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

/** Fenced code blocks and inline code spans hold examples, not links or headings. */
const withoutCodeBlocks = (markdown: string) =>
  markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
const withoutCode = (markdown: string) => withoutCodeBlocks(markdown).replace(/(`+)[^`\n]*?\1/g, '');

const LINK_PATTERNS = [
  /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, // [text](target "title"), images too
  /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm, // [label]: target
  /<((?:[a-z][a-z0-9+.-]*:)[^>\s]+)>/gi, // <https://...>
  /\b(?:href|src)="([^"]+)"/g, // HTML
];

export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  return LINK_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map(([, target = '']) => target));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats === 0 ? slug : `${slug}-${repeats}`);
  }
  return anchors;
}

/** Each link of `file` (relative to `root`) that does not resolve inside the repository, with why. */
export function brokenLinks(root: string, file: string): string[] {
  const markdown = readFileSync(join(root, file), 'utf8');
  return linkTargets(markdown).flatMap((target) => {
    if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) return [`${target}: leaves the repository`];
    const [pathPart = '', fragment] = target.split('#');
    const path =
      pathPart === '' ? join(root, file) : resolve(root, dirname(file), decodeURIComponent(pathPart));
    if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) {
      return [`${target}: leaves the repository`];
    }
    if (!existsSync(path)) return [`${target}: no such file`];
    if (fragment === undefined || !path.endsWith('.md')) return [];
    return headingAnchors(readFileSync(path, 'utf8')).has(fragment) ? [] : [`${target}: no such heading`];
  });
}
