// `npm run keys -- <create | list | rotate | revoke | probe> ...`: manages API keys in a deployed
// stage's table (and its usage plan, for per-key limits), a DynamoDB the user names, a data directory's
// or a running local server's, saying which on stderr first. A plain key is printed once, by `create` or
// `rotate` (`probe` stores it in a secret, unprinted); a failure is one line, exit 1, nothing changed.
import { parseArgs } from 'node:util';
import { createApiKeyStore, hasExpired } from '#shared/store/api-key-store.ts';
import type { ApiKeyRecord, ApiKeyTerms, IssuedApiKey } from '#shared/store/api-key-store.ts';
import { disableInUsagePlan } from '#scripts/keys/usage-plan.ts';
import { KeysError, at, explainFailure, findKeys, whereHelp } from '#scripts/keys/target.ts';
import type { KeysTarget } from '#scripts/keys/target.ts';
import { readExpiry, readOverlapEnd } from '#scripts/keys/terms.ts';
import { describeTerms, issue } from '#scripts/keys/issue.ts';

const DEFAULT_OVERLAP = '24h';
/**
 * The probe's old key keeps working this long after its successor is stored: a canary run (every 5
 * minutes, a minute at most) that read the secret just before still passes, and so do a few retried ones.
 */
const PROBE_OVERLAP = '1h';

const USAGE =
  'usage: npm run keys -- <create --name NAME [--read-only] [--expires WHEN] | list | ' +
  'rotate KEY_ID [--overlap DURATION] | revoke KEY_ID | probe [--overlap DURATION]> ' +
  '[--stage staging|production] [--port PORT]';

const HELP = `${USAGE}
  create --name NAME   creates a key and prints it, this once; it has full access and no expiry unless:
    --read-only        it may call GET only (anything else is answered 403 forbidden)
    --expires WHEN     it is refused from WHEN on, like an unknown key: an ISO 8601 date-time with
                       its zone (2030-01-31T18:00:00Z) or a duration from now (90s, 30m, 12h, 30d)
  list                 id, created, scope, active (until when) or expired or revoked, name
  rotate KEY_ID        issues a key with the same name, scope and expiry and prints it, this once;
    --overlap DURATION the old key keeps working this long (default ${DEFAULT_OVERLAP}; 0s ends it at once)
  revoke KEY_ID        refuses the key from now on
  probe                with --stage: the probe's new key, into its secret, unshown; --overlap default ${PROBE_OVERLAP}
  --port PORT          the running npm start on this port, when several run
${whereHelp('Where the keys are')}`;

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const DURATION_OPTIONS = new Set(['--expires', '--overlap']);

/**
 * `--overlap -1h` as `--overlap=-1h`: parseArgs takes a value that starts with a dash for an option
 * and says so in three lines; a negative duration deserves its own one-line answer.
 */
function joinDashedValues(args: string[]) {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const [arg = '', next] = [args[index], args[index + 1]];
    const dashed = DURATION_OPTIONS.has(arg) && next?.startsWith('-');
    joined.push(dashed ? `${arg}=${next}` : arg);
    if (dashed) index++;
  }
  return joined;
}

/** The command line; a mistake in it is its message and the usage line. */
function readCommandLine() {
  try {
    return parseArgs({
      args: joinDashedValues(process.argv.slice(2)),
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        'read-only': { type: 'boolean' },
        expires: { type: 'string' },
        overlap: { type: 'string' },
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
const createOptionsGiven = [values.name, values['read-only'], values.expires].some(
  (value) => value !== undefined,
);
const valid =
  extra.length === 0 &&
  (command === 'rotate' || command === 'probe' || values.overlap === undefined) &&
  (command === 'create' || !createOptionsGiven) &&
  ((command === 'create' && values.name && !keyId) ||
    ((command === 'list' || command === 'probe') && !keyId) ||
    ((command === 'rotate' || command === 'revoke') && keyId));
if (!valid) fail(USAGE);
if (command === 'probe' && values.stage === undefined)
  fail(`keys: probe issues a deployed stage's probe key: add --stage staging|production.\n${USAGE}`);

/** A setting read before anything is written, so that a mistake in it changes nothing. */
function readOrFail<Value>(read: () => Value): Value {
  try {
    return read();
  } catch (error) {
    return fail(`keys: ${(error as Error).message}`);
  }
}

const printIssued = (issued: IssuedApiKey) =>
  console.log(`Issued ${issued.id} (${describeTerms(issued)}). The key, shown this once:\n${issued.key}`);

async function create(target: KeysTarget, name: string, terms: ApiKeyTerms) {
  printIssued(await issue(target, name, terms));
}

/** The key with this id; a KeysError when there is none. */
async function keyWithId({ where, table }: KeysTarget, id: string): Promise<ApiKeyRecord> {
  const existing = (await at(where, createApiKeyStore(table).list())).find((key) => key.id === id);
  if (!existing) throw new KeysError(`No key with id ${id}.`);
  return existing;
}

/** The key with this id, if it can still be rotated; otherwise why not, as a KeysError. */
async function rotatable(target: KeysTarget, id: string): Promise<ApiKeyRecord> {
  const existing = await keyWithId(target, id);
  const ended = existing.revokedAt
    ? `was revoked at ${existing.revokedAt}`
    : hasExpired(existing) && `expired at ${existing.expiresAt}`;
  if (ended) throw new KeysError(`${id} ${ended}: there is nothing to rotate; create a new key.`);
  return existing;
}

async function rotate(target: KeysTarget, id: string, oldKeyEndsAt: string) {
  const old = await rotatable(target, id);
  const { scope, expiresAt } = old;
  const issued = await issue(target, old.name, { scope, expiresAt });
  const keys = createApiKeyStore(target.table);
  const ended = await at(target.where, keys.expire(id, oldKeyEndsAt)).catch(async (error: Error) => {
    await at(target.where, keys.revoke(issued.id));
    throw new KeysError(`${error.message} (${issued.id} is revoked again; ${id} is unchanged)`);
  });
  printIssued(issued);
  const endsAt = ended?.expiresAt ?? oldKeyEndsAt;
  console.log(
    hasExpired({ ...old, expiresAt: endsAt })
      ? `${id} expired at ${endsAt}: only the new key works.`
      : `${id} expires at ${endsAt}: until then both keys work.`,
  );
}

async function revoke(target: KeysTarget, id: string) {
  const { where, table, usagePlan } = target;
  const keys = createApiKeyStore(table);
  const existing = await keyWithId(target, id);
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

/** active, active until T, expired T or revoked T. */
function state(key: ApiKeyRecord) {
  if (key.revokedAt) return `revoked ${key.revokedAt}`;
  if (!key.expiresAt) return 'active';
  return hasExpired(key) ? `expired ${key.expiresAt}` : `active until ${key.expiresAt}`;
}

async function list({ where, table }: KeysTarget) {
  for (const key of await at(where, createApiKeyStore(table).list())) {
    console.log([key.id, key.createdAt, key.scope, state(key), key.name].join('  '));
  }
}

const terms: ApiKeyTerms = readOrFail(() => ({
  scope: values['read-only'] ? 'read-only' : 'full',
  expiresAt: values.expires === undefined ? undefined : readExpiry(values.expires),
}));
const overlap = values.overlap ?? (command === 'probe' ? PROBE_OVERLAP : DEFAULT_OVERLAP);
const overlapEnd = readOrFail(() => readOverlapEnd(overlap));
const target = await findKeys(values, process.env).catch((error: unknown) =>
  fail(`keys: ${error instanceof KeysError ? error.message : explainFailure(error)}`),
);
console.error(`keys: ${target.description}`);
try {
  if (command === 'create') await create(target, values.name ?? '', terms);
  else if (command === 'list') await list(target);
  else if (command === 'rotate') await rotate(target, keyId ?? '', overlapEnd);
  else if (command === 'revoke') await revoke(target, keyId ?? '');
  // Loaded for probe only: it brings in the stage settings (and the CDK) and Secrets Manager's client.
  else await (await import('#scripts/keys/probe.ts')).probe(target, values.stage ?? '', overlapEnd);
} catch (error) {
  console.error(`keys: ${error instanceof KeysError ? error.message : explainFailure(error)}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
