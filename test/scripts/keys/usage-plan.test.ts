// API Gateway cannot run here: this test stands a recording fake in for its client and checks the
// requests `npm run keys -- --stage` makes to register and disable a key in the usage plan.
import { describe, expect, it } from '@jest/globals';
import { GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import { addToUsagePlan, disableInUsagePlan } from '#scripts/keys/usage-plan.ts';

function recordingClient(apiKeys: { id: string; name: string }[] = [], failing: string[] = []) {
  const sent: { command: string; input: unknown }[] = [];
  return {
    sent,
    send: async (command: { constructor: { name: string }; input: unknown }) => {
      sent.push({ command: command.constructor.name, input: command.input });
      if (failing.includes(command.constructor.name)) throw new Error(`${command.constructor.name} refused`);
      if (command instanceof GetApiKeysCommand) return { items: apiKeys };
      return { id: 'apigw-key-1' };
    },
  };
}

describe('usage plan keys', () => {
  it('registers the key hash as an API Gateway key named by the key id, in the usage plan', async () => {
    const client = recordingClient();
    await addToUsagePlan(client as never, 'plan-1', 'key_abc', 'f'.repeat(64));
    expect(client.sent).toEqual([
      { command: 'CreateApiKeyCommand', input: { name: 'key_abc', value: 'f'.repeat(64), enabled: true } },
      {
        command: 'CreateUsagePlanKeyCommand',
        input: { usagePlanId: 'plan-1', keyId: 'apigw-key-1', keyType: 'API_KEY' },
      },
    ]);
  });

  it('deletes the API Gateway key again when the usage plan refuses it, and says so', async () => {
    const client = recordingClient([], ['CreateUsagePlanKeyCommand']);
    await expect(addToUsagePlan(client as never, 'plan-1', 'key_abc', 'f'.repeat(64))).rejects.toThrow(
      'adding key_abc to usage plan plan-1 failed (CreateUsagePlanKeyCommand refused); the API Gateway key was deleted again.',
    );
    expect(client.sent.at(-1)).toEqual({ command: 'DeleteApiKeyCommand', input: { apiKey: 'apigw-key-1' } });
  });

  it('names the API Gateway key left behind when it cannot be deleted either', async () => {
    const client = recordingClient([], ['CreateUsagePlanKeyCommand', 'DeleteApiKeyCommand']);
    await expect(addToUsagePlan(client as never, 'plan-1', 'key_abc', 'f'.repeat(64))).rejects.toThrow(
      'the API Gateway key apigw-key-1 could not be deleted: delete it by hand.',
    );
  });

  it('disables the API Gateway key with exactly that name', async () => {
    const client = recordingClient([
      { id: 'other', name: 'key_abcdef' },
      { id: 'mine', name: 'key_abc' },
    ]);
    expect(await disableInUsagePlan(client as never, 'key_abc')).toBe(true);
    expect(client.sent.at(-1)).toEqual({
      command: 'UpdateApiKeyCommand',
      input: { apiKey: 'mine', patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] },
    });
  });

  it('reports a key that has no API Gateway key', async () => {
    expect(await disableInUsagePlan(recordingClient() as never, 'key_none')).toBe(false);
  });
});
