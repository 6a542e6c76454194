// The guide for the next engineer stays true: every file, test and script CONTRIBUTING.md names
// exists, its diagrams are Mermaid (which the code host renders), and the recipes' documentation
// steps hold: docs/api.md describes every field and filter, CHANGELOG.md every unreleased change.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ListPetsQuery, NewPet, Pet } from '#shared/schemas.ts';
import { readRepoFile, readRepoJson, REPO_ROOT } from '#test/support/repository.ts';

const guide = readRepoFile('CONTRIBUTING.md');
const changelog = readRepoFile('CHANGELOG.md');
const api = readRepoFile('docs/api.md');

/** The text of a Markdown section, from its `## ` heading to the next. */
const section = (markdown: string, heading: string) =>
  markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';

const fieldsOf = (schema: { _zod: { def: { shape: object } } }) => Object.keys(schema._zod.def.shape);

describe('CONTRIBUTING.md', () => {
  it('names only files and folders that exist', () => {
    const paths = [...guide.matchAll(/`((?:[\w.-]+\/)+[\w.-]*)`/g)].map(([, path = '']) => path);
    expect(paths).toEqual(expect.arrayContaining(['functions/manifests.ts', 'shared/store/table.ts']));
    expect(paths.filter((path) => !existsSync(join(REPO_ROOT, path)))).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    const { scripts } = readRepoJson('package.json') as { scripts: Record<string, string> };
    const named = [...guide.matchAll(/npm run ([\w:-]+)/g)].map(([, script = '']) => script);
    expect(named).toEqual(expect.arrayContaining(['openapi', 'capacity', 'jest', 'test:fast']));
    expect(named.filter((script) => !(script in scripts))).toEqual([]);
  });

  it('draws the request path and the table layout in Mermaid', () => {
    const diagrams = [...guide.matchAll(/```mermaid\n(\w+)/g)].map(([, kind]) => kind);
    expect(diagrams).toEqual(['flowchart', 'flowchart']);
  });
});

describe("the recipes' documentation steps", () => {
  it("docs/api.md's Animals section names every field of NewPet and Pet", () => {
    const animals = section(api, 'Animals');
    const fields = [...new Set([...fieldsOf(NewPet), ...fieldsOf(Pet)])];
    expect(fields.filter((field) => !animals.includes(`\`${field}\``))).toEqual([]);
  });

  it("docs/api.md's listPets section names every query field", () => {
    const listPets = section(api, 'listPets');
    expect(fieldsOf(ListPetsQuery).filter((field) => !listPets.includes(`\`${field}\``))).toEqual([]);
  });

  it('CHANGELOG.md says what is unreleased while openapi.json differs from the released v1', () => {
    const unreleased = section(changelog, 'Unreleased')
      .replace(/^Unreleased\n/, '')
      .trim();
    const released = readRepoFile('openapi.v1-baseline.json') === readRepoFile('openapi.json');
    expect(unreleased).not.toBe('');
    if (!released) expect(unreleased).not.toMatch(/^Nothing yet/);
  });

  it('names each field and parameter that openapi.json adds to v1 in both changelogs, under Unreleased', () => {
    const baseline = namesIn(readRepoJson('openapi.v1-baseline.json'));
    expect([...baseline]).toEqual(expect.arrayContaining(['categoryId', 'limit', 'Idempotency-Key']));
    const added = [...namesIn(readRepoJson('openapi.json'))].filter((name) => !baseline.has(name));
    const changelogs = {
      'CHANGELOG.md': changelog,
      'client/CHANGELOG.md': readRepoFile('client/CHANGELOG.md'),
    };
    const missing = Object.entries(changelogs).flatMap(([file, text]) =>
      added
        .filter((name) => !section(text, 'Unreleased').includes(`\`${name}\``))
        .map((name) => `${file}: name \`${name}\` under Unreleased`),
    );
    expect(missing).toEqual([]);
  });
});

/** The names of every schema property and every parameter of an OpenAPI document. */
function namesIn(document: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(document)) for (const item of document) namesIn(item, names);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return names;
  const node = document as Record<string, unknown>;
  if (typeof node.name === 'string' && typeof node.in === 'string') names.add(node.name);
  if (node.properties && typeof node.properties === 'object')
    for (const name of Object.keys(node.properties)) names.add(name);
  for (const value of Object.values(node)) namesIn(value, names);
  return names;
}
