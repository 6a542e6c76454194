// The runbook's manual rollback (docs/deployment.md, "Rolling back by hand") against what
// CloudFormation does on an update: a resource the new template no longer has is deleted, unless its
// DeletionPolicy is Retain. The version `live` pointed at before a release must outlive the release.
import { describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PetstoreFunction } from '#lib/functions/petstore-function.ts';
import { PetstoreTable } from '#lib/data/petstore-table.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { appWithFlags, defined } from '#test/lib/synthesize.ts';
import { referencedId } from '#test/lib/templates.ts';
import { readRepoFile } from '#test/support/repository.ts';

type Resources = Record<
  string,
  { Type: string; DeletionPolicy?: string; Properties: Record<string, unknown> }
>;

/** One function of production as a release configures it: `memory` stands for any change. */
function release(memory: number): Resources {
  const settings = { ...STAGE_SETTINGS.production, functionMemoryMb: memory };
  const stack = new Stack(appWithFlags({}), 'Release');
  new PetstoreFunction(stack, 'GetPet', {
    entry: 'functions/get-pet.ts',
    logicalId: 'GetPetFunction',
    table: new PetstoreTable(stack, 'Table', settings),
    tableAccess: 'readPets',
    settings,
  });
  return Template.fromStack(stack).toJSON().Resources as Resources;
}

/** What the stack holds after CloudFormation updated it from `before` to `after`. */
const afterUpdate = (before: Resources, after: Resources): Resources => ({
  ...Object.fromEntries(
    Object.entries(before).filter(([id, resource]) => !(id in after) && resource.DeletionPolicy === 'Retain'),
  ),
  ...after,
});

const liveVersion = (resources: Resources) => {
  const [, alias] = defined(
    Object.entries(resources).find(([, resource]) => resource.Type === 'AWS::Lambda::Alias'),
    'the alias live',
  );
  return referencedId(alias.Properties.FunctionVersion);
};

describe('a rollback by hand', () => {
  const before = release(512);
  const after = release(1024);

  test('a release publishes a new version, and the one live pointed at survives the update', () => {
    const previous = liveVersion(before);
    expect(liveVersion(after)).not.toBe(previous);
    expect(previous in after).toBe(false);
    expect(afterUpdate(before, after)[previous]?.Type).toBe('AWS::Lambda::Version');
  });

  test('the runbook lists the versions, then moves live to the previous one', () => {
    const runbook = readRepoFile('docs/deployment.md');
    const section = defined(/### Rolling back by hand\n([\s\S]*?)\n### /.exec(runbook)?.[1], 'the section');
    const commands = section
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.trim());
    const listed = commands.findIndex((line) => line.startsWith('aws lambda list-versions-by-function '));
    const moved = commands.findIndex((line) => line.startsWith('aws lambda update-alias '));
    expect(listed).toBeGreaterThan(-1);
    expect(moved).toBeGreaterThan(listed);
    expect(commands[moved]).toMatch(/ --name live .*--function-version <previous version>/);
  });
});
