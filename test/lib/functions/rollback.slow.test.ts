// Releases replayed against the rules CloudFormation and Lambda document (the Region below), on two
// functions built by lib/functions/petstore-function.ts: a failed release can be retried, and the
// runbook's way back (docs/deployment.md, "Rolling back") has a version to go back to.
import { describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PetstoreFunction } from '#lib/functions/petstore-function.ts';
import { PetstoreTable } from '#lib/data/petstore-table.ts';
import { STAGE_SETTINGS } from '#lib/stage-settings.ts';
import { appWithFlags } from '#test/lib/app-with-flags.ts';
import { defined } from '#test/support/defined.ts';
import { referencedId } from '#test/lib/templates.ts';
import { readRepoFile } from '#test/support/repository.ts';

type Resource = { Type: string; DeletionPolicy?: string; Properties: Record<string, unknown> };
type Resources = Record<string, Resource>;
type FunctionId = 'GetPetFunction' | 'ListPetsFunction';

/**
 * A release of two functions of production, each at a revision: a revision stands for any change of
 * code or configuration, as both give the function a new version. No bundling: the code is the same.
 */
function release(revisions: Record<FunctionId, string>): Resources {
  const settings = STAGE_SETTINGS.production;
  const stack = new Stack(appWithFlags({ 'aws:cdk:bundling-stacks': [] }), 'Release');
  const table = new PetstoreTable(stack, 'Table', settings);
  for (const [name, entry] of [
    ['GetPet', 'functions/get-pet.ts'],
    ['ListPets', 'functions/list-pets.ts'],
  ] as const) {
    const logicalId: FunctionId = `${name}Function`;
    const environment = { REVISION: revisions[logicalId] };
    new PetstoreFunction(stack, name, {
      entry,
      logicalId,
      table,
      tableAccess: 'readPets',
      settings,
      environment,
    });
  }
  return Template.fromStack(stack).toJSON().Resources as Resources;
}

const ofType = (resources: Resources, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** A function as Lambda holds it: $LATEST's code and configuration, and the versions published. */
type LambdaFunction = { latest: string; versions: Map<number, string>; lastNumber: number };

/** A published version: its function and number, the physical id of a version resource. */
type Published = { functionId: string; number: number };

/**
 * One stack and its functions, as CloudFormation and Lambda keep them:
 * - An update creates the resources the stack lacks and updates the others. When it fails, every
 *   property goes back and what it created is deleted, except a resource whose DeletionPolicy is
 *   Retain, which is let go instead (DELETE_SKIPPED); RetainExceptOnCreate is deleted.
 * - An update that succeeds deletes what the new template lacks, unless its DeletionPolicy is
 *   Retain or RetainExceptOnCreate.
 * - PublishVersion publishes nothing when the function's code and configuration are unchanged since
 *   the last version (its API reference), and AWS::Lambda::Version then fails.
 */
class Region {
  stack: Resources = {};
  readonly functions = new Map<string, LambdaFunction>();
  /** The version behind each version resource of the stack. */
  readonly published = new Map<string, Published>();
  /** Where each function's alias `live` points in Lambda. */
  readonly live = new Map<string, number>();

  /** A stack update to `template`; `alarm` fails it once its rollout has begun, as an alarm does. */
  update(template: Resources, { alarm = false } = {}): string {
    const before = this.stack;
    const created: string[] = [];
    const rollBack = (reason: string) => {
      this.apply(before);
      for (const id of created) this.letGo(id, template[id]?.DeletionPolicy === 'Retain');
      return `UPDATE_ROLLBACK_COMPLETE: ${reason}`;
    };
    for (const [id, resource] of ofType(template, 'AWS::Lambda::Function'))
      this.lambda(id).latest = JSON.stringify(resource.Properties);
    for (const [id, resource] of ofType(template, 'AWS::Lambda::Version')) {
      if (id in before) continue;
      const functionId = referencedId(resource.Properties.FunctionName);
      const fn = this.lambda(functionId);
      const last = Math.max(0, ...fn.versions.keys());
      if (fn.versions.get(last) === fn.latest)
        return rollBack(
          `A version for this Lambda function exists (${last}). Modify the function to create a new version.`,
        );
      fn.lastNumber += 1;
      fn.versions.set(fn.lastNumber, fn.latest);
      this.published.set(id, { functionId, number: fn.lastNumber });
      created.push(id);
    }
    this.pointAliases(template);
    if (alarm) return rollBack('a rollout alarm');
    for (const [id, { DeletionPolicy = 'Delete' }] of ofType(before, 'AWS::Lambda::Version'))
      if (!(id in template)) this.letGo(id, ['Retain', 'RetainExceptOnCreate'].includes(DeletionPolicy));
    this.stack = template;
    return 'UPDATE_COMPLETE';
  }

  /** `aws lambda update-alias --name live --function-version <version>`. */
  updateAlias(functionId: string, version: number) {
    if (!this.lambda(functionId).versions.has(version))
      throw new Error(`ResourceNotFoundException: ${functionId} has no version ${version}`);
    this.live.set(functionId, version);
  }

  /** The newest version older than the one `live` points at: where the runbook moves it by hand. */
  previousVersion(functionId: string): number {
    const current = defined(this.live.get(functionId), `live of ${functionId}`);
    return Math.max(
      0,
      ...[...this.lambda(functionId).versions.keys()].filter((version) => version < current),
    );
  }

  /** The functions whose alias points elsewhere than the stack says: what drift detection reports. */
  drifted(): string[] {
    return ofType(this.stack, 'AWS::Lambda::Alias').flatMap(([, { Properties }]) => {
      const functionId = referencedId(Properties.FunctionName);
      const named = this.published.get(referencedId(Properties.FunctionVersion))?.number;
      return this.live.get(functionId) === named ? [] : [functionId];
    });
  }

  /** The revision of the version `live` points at. */
  liveRevision(functionId: string): string {
    const fn = this.lambda(functionId);
    const configuration = defined(fn.versions.get(defined(this.live.get(functionId), 'live')), 'version');
    return (JSON.parse(configuration) as { Environment: { Variables: { REVISION: string } } }).Environment
      .Variables.REVISION;
  }

  /** How many versions of the function Lambda keeps. */
  versionCount(functionId: string): number {
    return this.lambda(functionId).versions.size;
  }

  private apply(resources: Resources) {
    for (const [id, resource] of ofType(resources, 'AWS::Lambda::Function'))
      this.lambda(id).latest = JSON.stringify(resource.Properties);
    this.pointAliases(resources);
  }

  private pointAliases(resources: Resources) {
    for (const [, { Properties }] of ofType(resources, 'AWS::Lambda::Alias')) {
      const version = this.published.get(referencedId(Properties.FunctionVersion));
      this.live.set(referencedId(Properties.FunctionName), defined(version, 'the version live names').number);
    }
  }

  /** The stack lets go of a version resource: kept in Lambda (DELETE_SKIPPED), or deleted there. */
  private letGo(id: string, keep: boolean) {
    const { functionId, number } = defined(this.published.get(id), `version ${id}`);
    if (!keep) this.lambda(functionId).versions.delete(number);
    this.published.delete(id);
  }

  private lambda(functionId: string): LambdaFunction {
    const fn = this.functions.get(functionId) ?? { latest: '', versions: new Map(), lastNumber: 0 };
    this.functions.set(functionId, fn);
    return fn;
  }
}

describe('a release that fails, replayed', () => {
  const A = release({ GetPetFunction: 'A', ListPetsFunction: 'A' });
  const B = release({ GetPetFunction: 'B', ListPetsFunction: 'B' });
  const C = release({ GetPetFunction: 'C', ListPetsFunction: 'B' });
  const D = release({ GetPetFunction: 'D', ListPetsFunction: 'D' });
  const region = new Region();

  test('release A deploys; B is rolled back by an alarm and leaves no version behind', () => {
    expect(region.update(A)).toBe('UPDATE_COMPLETE');
    expect(region.update(B, { alarm: true })).toBe('UPDATE_ROLLBACK_COMPLETE: a rollout alarm');
    expect(region.liveRevision('GetPetFunction')).toBe('A');
    expect(region.versionCount('GetPetFunction')).toBe(1);
  });

  test('B deployed again as it is (the re-run button) publishes and deploys', () => {
    expect(region.update(B)).toBe('UPDATE_COMPLETE');
    expect(region.liveRevision('ListPetsFunction')).toBe('B');
  });

  test('a fix C that changes one function deploys; a deploy of C again changes nothing', () => {
    expect(region.update(C)).toBe('UPDATE_COMPLETE');
    expect(region.liveRevision('GetPetFunction')).toBe('C');
    const versions = region.versionCount('GetPetFunction');
    expect(region.update(C)).toBe('UPDATE_COMPLETE');
    expect(region.versionCount('GetPetFunction')).toBe(versions);
  });

  test('by hand, live goes back to the previous version; drift detection names the function', () => {
    region.updateAlias('GetPetFunction', region.previousVersion('GetPetFunction'));
    expect(region.liveRevision('GetPetFunction')).toBe('B');
    expect(region.drifted()).toEqual(['GetPetFunction']);
  });

  test('deploying the last good release (B) brings the stack back in line', () => {
    expect(region.update(B)).toBe('UPDATE_COMPLETE');
    expect(region.drifted()).toEqual([]);
    expect(region.liveRevision('GetPetFunction')).toBe('B');
  });

  test('the next release deploys, and each release that succeeded keeps one version to go back to', () => {
    expect(region.update(D)).toBe('UPDATE_COMPLETE');
    expect(region.drifted()).toEqual([]);
    expect(['GetPetFunction', 'ListPetsFunction'].map((id) => region.liveRevision(id))).toEqual(['D', 'D']);
    // GetPet: A, B, C, B again, D. ListPets: A, B, D. The rolled-back B left nothing.
    expect(region.versionCount('GetPetFunction')).toBe(5);
    expect(region.versionCount('ListPetsFunction')).toBe(3);
  });
});

describe("the runbook's way back (docs/deployment.md, Rolling back)", () => {
  const section = defined(
    /### Rolling back\n([\s\S]*?)\n### /.exec(readRepoFile('docs/deployment.md'))?.[1],
    'it',
  );
  const at = (text: string) => section.indexOf(text);

  test('deploys the last good commit first; moves live by hand only after, then shows the drift', () => {
    expect(at('npm run deploy:production')).toBeGreaterThan(-1);
    expect(at('npm run deploy:production')).toBeLessThan(at('aws lambda list-versions-by-function '));
    expect(at('aws lambda list-versions-by-function ')).toBeLessThan(at('aws lambda update-alias '));
    expect(at('aws lambda update-alias ')).toBeLessThan(at('aws cloudformation detect-stack-drift '));
    expect(section).toMatch(
      /aws lambda update-alias .* --name live --function-version <the version before live's>/,
    );
  });
});
