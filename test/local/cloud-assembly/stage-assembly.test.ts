// When a stage's cloud assembly is synthesized again before it is served: one whose functions point at
// bundles inside cdk.out is served; one that `cdk ls` or `cdk destroy` wrote, whose asset paths point
// at the project itself (no bundles), is not.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { unbundled } from '#local/cloud-assembly/stage-assembly.ts';

/** A cdk.out with one stage whose one function has this asset path. */
function assemblyWith(assetPath: string | undefined) {
  const outDir = mkdtempSync(join(tmpdir(), 'petstore-assembly-'));
  const assemblyDir = join(outDir, 'assembly-Staging');
  mkdirSync(assemblyDir);
  const templateFile = join(assemblyDir, 'Staging.template.json');
  const Metadata = assetPath === undefined ? {} : { 'aws:asset:path': assetPath };
  writeFileSync(
    templateFile,
    JSON.stringify({
      Resources: { Fn: { Type: 'AWS::Lambda::Function', Metadata }, Table: { Type: 'AWS::DynamoDB::Table' } },
    }),
  );
  return { outDir, assembly: { assemblyDir, templateFile } };
}

describe('a stage assembly', () => {
  it('is bundled when each function points at an asset directory of cdk.out', () => {
    const { outDir, assembly } = assemblyWith('../asset.0a9b08fbfcea9f2f');
    expect(unbundled(outDir, assembly)).toBe(false);
  });

  it.each([
    ['the project directory, as cdk ls writes it', '/work/project'],
    ['a path out of cdk.out', '../../functions'],
    ['no asset path at all', undefined],
  ])('is unbundled when a function points at %s', (_case, assetPath) => {
    const { outDir, assembly } = assemblyWith(assetPath);
    expect(unbundled(outDir, assembly)).toBe(true);
  });
});
