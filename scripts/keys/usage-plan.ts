// A deployed stage enforces per-key limits through its API Gateway usage plan, which knows a
// client by an API Gateway API key: its value is the hash of our key (what the authorizer returns
// as usageIdentifierKey), its name our key id. Neither the key nor its hash is ever printed.
import {
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeysCommand,
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
