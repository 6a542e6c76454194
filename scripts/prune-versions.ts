// `npm run prune-versions -- --stage <stage> [--keep N] [--dry-run]`: deletes a deployed stage's oldest
// function versions, each holding its code against the region's Lambda storage quota. Each release
// keeps the version it replaced, the way back by hand (docs/deployment.md): this keeps the newest N
// and every version an alias points at. Every failure is one line on stderr and exit 1.
import { parseArgs } from 'node:util';
import {
  DeleteFunctionCommand,
  LambdaClient,
  ListAliasesCommand,
  ListVersionsByFunctionCommand,
} from '@aws-sdk/client-lambda';
import { readStageOutputs } from '#scripts/stage-outputs.ts';

/** Enough to roll back past several bad releases in a row, a small share of the storage quota. */
export const DEFAULT_KEEP = 10;

type Sender = Pick<LambdaClient, 'send'>;

/**
 * The published versions to delete: all but the newest `keep` and those an alias points at (its
 * version, and the other version of a weighted alias, as during a canary). `$LATEST` is never one.
 */
export function versionsToPrune(versions: string[], aliasTargets: Set<string>, keep: number): string[] {
  const published = versions.filter((version) => /^\d+$/.test(version)).sort((a, b) => Number(b) - Number(a));
  return published.slice(keep).filter((version) => !aliasTargets.has(version));
}

/** Every page of a Lambda listing, which pages by `Marker` and `NextMarker`. */
async function* pages<Page extends { NextMarker?: string }>(request: (marker?: string) => Promise<Page>) {
  let marker: string | undefined;
  do {
    const page = await request(marker);
    yield page;
    marker = page.NextMarker;
  } while (marker);
}

async function versionsOf(client: Sender, functionName: string): Promise<string[]> {
  const versions: string[] = [];
  const listing = (Marker?: string) =>
    client.send(new ListVersionsByFunctionCommand({ FunctionName: functionName, Marker }));
  for await (const page of pages(listing))
    versions.push(...(page.Versions ?? []).flatMap(({ Version }) => (Version ? [Version] : [])));
  return versions;
}

async function aliasTargetsOf(client: Sender, functionName: string): Promise<Set<string>> {
  const targets = new Set<string>();
  const listing = (Marker?: string) =>
    client.send(new ListAliasesCommand({ FunctionName: functionName, Marker }));
  for await (const page of pages(listing))
    for (const alias of page.Aliases ?? []) {
      if (alias.FunctionVersion) targets.add(alias.FunctionVersion);
      for (const weighted of Object.keys(alias.RoutingConfig?.AdditionalVersionWeights ?? {}))
        targets.add(weighted);
    }
  return targets;
}

/** Deletes (or, dry, only names) the versions `versionsToPrune` picks; returns them. */
export async function pruneVersions(client: Sender, functionName: string, keep: number, dryRun = false) {
  const [versions, targets] = await Promise.all([
    versionsOf(client, functionName),
    aliasTargetsOf(client, functionName),
  ]);
  const pruned = versionsToPrune(versions, targets, keep);
  if (!dryRun)
    for (const version of pruned)
      await client.send(new DeleteFunctionCommand({ FunctionName: functionName, Qualifier: version }));
  return pruned;
}

/** A mistake on the command line: its message is the whole story. */
class UsageError extends Error {
  override name = 'UsageError';
}

const USAGE = 'usage: npm run prune-versions -- --stage staging|production [--keep N] [--dry-run]';

function commandLine(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { stage: { type: 'string' }, keep: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  const keep = Number(values.keep ?? DEFAULT_KEEP);
  if (positionals.length > 0 || values.stage === undefined) throw new UsageError(USAGE);
  if (!Number.isInteger(keep) || keep < 1)
    throw new UsageError(`--keep must be a whole number of versions, at least 1, not "${values.keep}".`);
  return { stage: values.stage, keep, dryRun: values['dry-run'] ?? false };
}

async function main(args: string[]) {
  const { stage, keep, dryRun } = commandLine(args);
  const { FunctionNames, Region } = (await readStageOutputs(stage, ['FunctionNames', 'Region'])).outputs;
  const client = new LambdaClient({ region: Region });
  for (const functionName of FunctionNames.split(',')) {
    const pruned = await pruneVersions(client, functionName, keep, dryRun);
    const versions = pruned.length > 0 ? `versions ${pruned.join(', ')}` : 'no version';
    console.log(`${functionName}: ${dryRun ? 'would delete' : 'deleted'} ${versions}`);
  }
}

if (import.meta.main)
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`prune-versions: ${(error as Error).message.split('\n')[0]}`);
    process.exitCode = 1;
  });
