// `npm run keys -- revoke KEY_ID`: the key is refused from now on, by the authorizer at once and, in a
// stage, by API Gateway's usage plan too. A key revoked already stays as it was.
import { createApiKeyStore } from '#shared/store/api-key-store.ts';
import { keysCommand } from '#scripts/keys/command.ts';
import { keyWithId } from '#scripts/keys/issue.ts';
import { at } from '#scripts/keys/target.ts';
import { disableInUsagePlan } from '#scripts/keys/usage-plan.ts';

export const revoke = keysCommand({
  usage: 'revoke KEY_ID',
  help: '  revoke KEY_ID        refuses the key from now on',
  options: {},
  takesKeyId: true,
  read: ({ keyId }) => keyId,
  async run(target, id) {
    const { where, table, usagePlan } = target;
    const existing = await keyWithId(target, id);
    if (existing.revokedAt) {
      console.log(`${id} was revoked already, at ${existing.revokedAt}: nothing changed.`);
      return;
    }
    await at(where, createApiKeyStore(table).revoke(id));
    if (usagePlan && !(await at(usagePlan.where, disableInUsagePlan(usagePlan.apiGateway, id)))) {
      console.warn(`${id} had no API Gateway key in the usage plan: API Gateway refused it already.`);
    }
    console.log(
      `Revoked ${id}: refused at once by the authorizer, within the authorizer cache TTL by API Gateway.`,
    );
  },
});
