// `npm run reset -- [DIR]` (or PETSTORE_DATA_DIR): empties a local server's data directory, so the
// next start begins with an empty table (and PETSTORE_SEED can fill it again). Safely: it refuses
// while a server holds the directory, and removes only what the servers write there (the
// embedded DynamoDB's `dynamodb/` store and the `*.api-key` files), never anything else.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkDataDir, dynamoDbDataPath } from '#local/dynamodb/embedded.ts';

const USAGE = 'usage: npm run reset -- [DATA_DIR]   (default: PETSTORE_DATA_DIR)';

const fail = (message: string): never => {
  console.error(`reset: ${message}`);
  process.exit(1);
};

function readDataDir() {
  try {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    if (positionals.length > 1) return fail(USAGE);
    return positionals[0] || process.env.PETSTORE_DATA_DIR || fail(`name the data directory.\n${USAGE}`);
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
}

const dataDir = readDataDir();
if (!existsSync(dataDir)) {
  console.log(`reset: ${dataDir} does not exist: nothing to empty.`);
  process.exit(0);
}
await checkDataDir(dataDir).catch((error: Error) => fail(error.message));

const ours = readdirSync(dataDir).filter((name) => name.endsWith('.api-key'));
rmSync(dynamoDbDataPath(dataDir), { recursive: true, force: true });
for (const name of ours) rmSync(join(dataDir, name), { force: true });
const others = readdirSync(dataDir);
console.log(
  `reset: emptied ${dataDir} (the tables and ${ours.length} local key file(s))` +
    (others.length > 0 ? `; left what the servers did not write: ${others.join(', ')}.` : '.'),
);
