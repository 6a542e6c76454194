// `npm run restore -- --from TABLE [--dry-run]`: merges a table brought back from a backup into the
// table `npm run keys` would choose, by the rules of scripts/restore/item-rules.ts. Progress goes to
// stderr, the summary to stdout; a failure is one line, exit 1, and a second run changes nothing.
import { parseArgs } from 'node:util';
import { usagePlanServes } from '#scripts/keys/usage-plan.ts';
import { at, explainFailure, findKeys, whereHelp } from '#scripts/keys/target.ts';
import { checkTables } from '#scripts/restore/tables.ts';
import { formatCount, formatSummary, restoreTable } from '#scripts/restore/merge.ts';

const USAGE = 'usage: npm run restore -- --from TABLE [--dry-run] [--stage staging|production] [--port PORT]';
const HELP = `${USAGE}
  --from TABLE   the table to restore from, beside the one it restores into (same DynamoDB, same
                 region): a point-in-time restore, a backup's restore, or a deleted stack's table
  --dry-run      reads both tables and prints the summary the restore would, writing nothing
  --port PORT    the running npm start on this port, when several run
What comes back, and what stays as it is: docs/deployment.md#restore-the-data
${whereHelp('The table it restores into')}`;

/** A progress line on stderr each time this many more items are done. */
const PROGRESS_EVERY = 1_000;
const itemCount = (count: number) => `${formatCount(count)} item${count === 1 ? '' : 's'}`;

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

function readCommandLine() {
  try {
    return parseArgs({
      options: {
        from: { type: 'string' },
        'dry-run': { type: 'boolean' },
        stage: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(`restore: ${(error as Error).message}\n${USAGE}`);
  }
}

const { values } = readCommandLine();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const source = values.from ?? fail(`restore: name the table to restore from with --from.\n${USAGE}`);
const dryRun = values['dry-run'] === true;
const target = await findKeys({ ...values, createTable: false }, process.env).catch((error: unknown) =>
  fail(`restore: ${explainFailure(error)}`),
);
console.error(`restore: from table ${source} into ${target.description}${dryRun ? ', dry run' : ''}`);

let done = 0;
try {
  const { documentClient, table, where, usagePlan } = target;
  const about = await at(where, checkTables(target, source));
  const served = usagePlan && usagePlanServes(usagePlan.apiGateway, usagePlan.id);
  const summary = await at(
    where,
    restoreTable(
      {
        table,
        documentClient,
        dryRun,
        usagePlanServes: served && ((keyHash) => at(usagePlan.where, served(keyHash))),
      },
      source,
      (items) => {
        const total = about >= items ? ` of about ${formatCount(about)}` : '';
        if (Math.floor(items / PROGRESS_EVERY) > Math.floor(done / PROGRESS_EVERY))
          console.error(`restore: ${formatCount(items)}${total} items done`);
        done = items;
      },
    ),
  );
  const items = `${itemCount(summary.items)} of table ${source}`;
  console.log(
    dryRun
      ? `Dry run, nothing written: restoring ${items} into ${where} would give:`
      : `Restored ${items} into ${where}:`,
  );
  console.log(formatSummary(summary, { onStage: usagePlan !== undefined }));
} catch (error) {
  const after = done > 0 ? ` (after ${itemCount(done)}: run it again to finish)` : '';
  console.error(`restore: ${explainFailure(error)}${after}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
