// A deployed stage enforces per-key limits through its API Gateway usage plan, which knows a
// client by an API Gateway API key: its value is the hash of our key (what the authorizer returns
// as usageIdentifierKey), its name our key id. Neither the key nor its hash is ever printed.
import {
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeyCommand,
  GetApiKeysCommand,
  GetUsagePlanKeysCommand,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import type { APIGatewayClient } from '@aws-sdk/client-api-gateway';

type Sender = Pick<APIGatewayClient, 'send'>;

/**
 * Creates the API Gateway key and adds it to the usage plan. When adding fails, the API Gateway key
 * is deleted again, so no enabled key is left outside the plan; the error says whether that worked.
 */
export async function addToUsagePlan(client: Sender, usagePlanId: string, keyId: string, keyHash: string) {
  const { id } = await client.send(new CreateApiKeyCommand({ name: keyId, value: keyHash, enabled: true }));
  try {
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: id, keyType: 'API_KEY' }));
  } catch (error) {
    const undone = await client.send(new DeleteApiKeyCommand({ apiKey: id })).then(
      () => 'the API Gateway key was deleted again',
      () => `the API Gateway key ${id} could not be deleted: delete it by hand`,
    );
    throw new Error(
      `adding ${keyId} to usage plan ${usagePlanId} failed (${(error as Error).message}); ${undone}.`,
      { cause: error },
    );
  }
}

/** Disables the API Gateway key named keyId; false when there is none. */
export async function disableInUsagePlan(client: Sender, keyId: string): Promise<boolean> {
  const { items = [] } = await client.send(new GetApiKeysCommand({ nameQuery: keyId, includeValues: false }));
  const apiKey = items.find((item) => item.name === keyId);
  if (!apiKey?.id) return false;
  await client.send(
    new UpdateApiKeyCommand({
      apiKey: apiKey.id,
      patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }],
    }),
  );
  return true;
}

/** The usage plan's keys, by value (our key's hash) to API Gateway key id, read page by page. */
async function planKeyIds(client: Sender, usagePlanId: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let position: string | undefined;
  do {
    const page = await client.send(new GetUsagePlanKeysCommand({ usagePlanId, limit: 500, position }));
    for (const { id, value } of page.items ?? []) if (id && value) ids.set(value, id);
    position = page.position;
  } while (position);
  return ids;
}

/**
 * Asks whether the usage plan still serves the key with this hash: in the plan, and enabled (revoke
 * disables it). The plan's keys are read once, at the first question.
 */
export function usagePlanServes(client: Sender, usagePlanId: string) {
  let ids: Promise<Map<string, string>> | undefined;
  return async (keyHash: string): Promise<boolean> => {
    const id = (await (ids ??= planKeyIds(client, usagePlanId))).get(keyHash);
    return id !== undefined && (await client.send(new GetApiKeyCommand({ apiKey: id }))).enabled === true;
  };
}
