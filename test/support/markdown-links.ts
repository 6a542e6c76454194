// The links of a Markdown file and whether each resolves inside the repository: a file that
// exists, and for `#fragment`s a heading of that file (GitHub's anchors). A clone is all a reader
// has, so a link with a scheme or one that climbs out of the repository is a problem too. Also the
// tables: cells too long to read on a narrow screen, and a table's rows for the tests that read one.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { projectFiles } from '#test/support/repository.ts';

export const markdownFiles = (root: string) => projectFiles(root).filter((file) => file.endsWith('.md'));

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

function linkTargets(markdown: string): string[] {
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

/** The longest a table cell may be; what needs more goes in prose or a list under the table. */
export const MAX_TABLE_CELL = 120;

/** A table's delimiter row (`| --- | :-: |`): it has a pipe and nothing but dashes, colons and spaces. */
const DELIMITER_ROW = /^(?=.*\|)\s*\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$/;

/** The cells of a table row: split at pipes that are not escaped, the outer pipes dropped. */
const tableCells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** Each table cell of `markdown` (outside code blocks) longer than `max` characters, with its line. */
export function longTableCells(markdown: string, max = MAX_TABLE_CELL): string[] {
  const lines = markdown.split('\n');
  const found: string[] = [];
  let fence: string | undefined;
  let inTable = false;
  lines.forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      inTable = false;
      return;
    }
    if (fence !== undefined) return;
    if (!inTable) inTable = line.includes('|') && DELIMITER_ROW.test(lines[index + 1] ?? '');
    else if (line.trim() === '' || !line.includes('|')) inTable = false;
    if (!inTable || DELIMITER_ROW.test(line)) return;
    for (const cell of tableCells(line)) {
      if (cell.length > max)
        found.push(`line ${index + 1}: ${cell.length} characters: ${cell.slice(0, 40)}...`);
    }
  });
  return found;
}

/** The body rows of the first table after `heading`, as cells: empty when there is none. */
export function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  if (start < 0) return [];
  const [table = ''] = /^\|[\s\S]*?\n(?!\|)/m.exec(markdown.slice(start)) ?? [];
  return table.trim().split('\n').slice(2).map(tableCells);
}
