// `npm run keys -- <create --name NAME | list | revoke KEY_ID> [--stage staging|production] ...`: manages
// API keys in a deployed stage's table (and its usage plan, for per-key limits), a DynamoDB the user
// names, a data directory's or a running local server's, saying which on stderr first. The plain key is
// printed once, by `create`, never shown or logged again; every failure is one line on stderr and exit 1.
import { parseArgs } from 'node:util';
import { createApiKeyStore, hashApiKey } from '#shared/store/api-key-store.ts';
import { addToUsagePlan, disableInUsagePlan } from '#scripts/keys/usage-plan.ts';
import { KeysError, WHERE_HELP, at, explainFailure, findKeys } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';

const USAGE =
  'usage: npm run keys -- <create --name NAME | list | revoke KEY_ID> [--stage staging|production] [--port PORT]';

const HELP = `${USAGE}
  create --name NAME   creates a key and prints it, this once
  list                 id, created, active or revoked, name
  revoke KEY_ID        refuses the key from now on
  --port PORT          the running npm start on this port, when several run
${WHERE_HELP}`;

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

/** The command line; a mistake in it is its message and the usage line. */
function readCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        stage: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(`keys: ${(error as Error).message}\n${USAGE}`);
  }
}

const { values, positionals } = readCommandLine();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const [command, keyId, ...extra] = positionals;
const valid =
  extra.length === 0 &&
  ((command === 'create' && values.name && !keyId) ||
    (command === 'list' && !keyId) ||
    (command === 'revoke' && keyId));
if (!valid) fail(USAGE);

async function create({ where, table, usagePlan }: KeysTarget, name: string) {
  const keys = createApiKeyStore(table);
  const issued = await at(where, keys.issue(name));
  if (usagePlan) {
    const added = addToUsagePlan(usagePlan.apiGateway, usagePlan.id, issued.id, hashApiKey(issued.key));
    await at(usagePlan.where, added).catch(async (error: Error) => {
      await at(where, keys.revoke(issued.id));
      throw new KeysError(`${error.message} (${issued.id} is revoked again)`);
    });
  }
  console.log(`Issued ${issued.id} (${issued.name}). The key, shown this once:\n${issued.key}`);
}

async function revoke({ where, table, usagePlan }: KeysTarget, id: string) {
  const keys = createApiKeyStore(table);
  const existing = (await at(where, keys.list())).find((key) => key.id === id);
  if (!existing) throw new KeysError(`No key with id ${id}.`);
  if (existing.revokedAt) {
    console.log(`${id} was revoked already, at ${existing.revokedAt}: nothing changed.`);
    return;
  }
  await at(where, keys.revoke(id));
  if (usagePlan && !(await at(usagePlan.where, disableInUsagePlan(usagePlan.apiGateway, id)))) {
    console.warn(`${id} had no API Gateway key in the usage plan: API Gateway refused it already.`);
  }
  console.log(
    `Revoked ${id}: refused at once by the authorizer, within the authorizer cache TTL by API Gateway.`,
  );
}

async function list({ where, table }: KeysTarget) {
  for (const key of await at(where, createApiKeyStore(table).list())) {
    console.log(
      [key.id, key.createdAt, key.revokedAt ? `revoked ${key.revokedAt}` : 'active', key.name].join('  '),
    );
  }
}

const target = await findKeys(values, process.env).catch((error: unknown) =>
  fail(`keys: ${error instanceof KeysError ? error.message : explainFailure(error)}`),
);
console.error(`keys: ${target.description}`);
try {
  if (command === 'create') await create(target, values.name ?? '');
  else if (command === 'list') await list(target);
  else await revoke(target, keyId ?? '');
} catch (error) {
  console.error(`keys: ${error instanceof KeysError ? error.message : explainFailure(error)}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
