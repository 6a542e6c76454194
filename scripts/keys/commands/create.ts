// `npm run keys -- create --name NAME`: a new key, full and with no expiry unless the options say
// otherwise, printed this once.
import type { ApiKeyTerms } from '#shared/store/api-key-store.ts';
import { UsageError, keysCommand } from '#scripts/keys/command.ts';
import { issue, printIssued } from '#scripts/keys/issue.ts';
import { readExpiry } from '#scripts/keys/terms.ts';

export const create = keysCommand({
  usage: 'create --name NAME [--read-only] [--expires WHEN]',
  help: `  create --name NAME   creates a key and prints it, this once; it has full access and no expiry unless:
    --read-only        it may call GET only (anything else is answered 403 forbidden)
    --expires WHEN     it is refused from WHEN on, like an unknown key: an ISO 8601 date-time with
                       its zone (2030-01-31T18:00:00Z) or a duration from now (90s, 30m, 12h, 30d)`,
  options: { name: { type: 'string' }, 'read-only': { type: 'boolean' }, expires: { type: 'string' } },
  takesKeyId: false,
  read({ values }) {
    if (!values.name) throw new UsageError();
    const terms: ApiKeyTerms = {
      scope: values['read-only'] ? 'read-only' : 'full',
      expiresAt: values.expires === undefined ? undefined : readExpiry(values.expires),
    };
    return { name: values.name, terms };
  },
  run: async (target, { name, terms }) => printIssued(await issue(target, name, terms)),
});
