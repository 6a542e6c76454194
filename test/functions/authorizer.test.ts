// The TOKEN authorizer's handler, invoked as API Gateway invokes it, over this file's table in the
// test DynamoDB: the policy, principal and usage key of a valid key (every method, or GET only for a
// read-only key), and "Unauthorized" for any other: unknown, revoked or expired.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { apiKeyItem, hashApiKey } from '#shared/store/api-key-store.ts';
import type { IssuedApiKey } from '#shared/store/api-key-store.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { testApiKeys, testFunctions, testTable } from '#test/support/test-table.ts';

const { authorizer: authorize } = testFunctions;

const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/GET/pets';
const event = (authorizationToken: string): APIGatewayTokenAuthorizerEvent => ({
  type: 'TOKEN',
  authorizationToken,
  methodArn: METHOD_ARN,
});

let issued: IssuedApiKey;

beforeAll(async () => {
  issued = await testApiKeys.issue('test client');
});

describe('the TOKEN authorizer', () => {
  it('allows a valid key on every route of the stage, with the key id as principal', async () => {
    const result = await authorize(event(`Bearer ${issued.key}`), lambdaContext());
    expect(result.principalId).toBe(issued.id);
    expect(result.policyDocument.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/*',
      },
    ]);
    expect(result.context).toEqual({ apiKeyId: issued.id, scope: 'full' });
    expect(result.usageIdentifierKey).toBe(hashApiKey(issued.key));
    expect(result.usageIdentifierKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme written %s', async (scheme) => {
    expect((await authorize(event(`${scheme} ${issued.key}`), lambdaContext())).principalId).toBe(issued.id);
  });

  it.each([
    ['an unknown key', () => 'Bearer psk_unknown'],
    ['another scheme', () => `Basic ${issued.key}`],
    ['an empty token', () => 'Bearer '],
    ['no scheme', () => issued.key],
    ['an empty header', () => ''],
    ['a key in another case', () => `Bearer ${issued.key.toUpperCase()}`],
    ['the stored hash instead of the key', () => `Bearer ${hashApiKey(issued.key)}`],
  ])('throws exactly "Unauthorized" for %s', async (_case, header) => {
    await expect(authorize(event(header()), lambdaContext())).rejects.toThrow(/^Unauthorized$/);
  });

  it('issues random keys of 256 bits and stores only their hash', async () => {
    expect(issued.key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    const other = await testApiKeys.issue('other');
    expect(other.key).not.toBe(issued.key);
    const listed = await testApiKeys.list();
    expect(listed.map((key) => key.id)).toEqual(expect.arrayContaining([issued.id, other.id]));
    expect(JSON.stringify(listed)).not.toContain(issued.key);
  });

  it('refuses a revoked key at once', async () => {
    const doomed = await testApiKeys.issue('doomed');
    expect((await authorize(event(`Bearer ${doomed.key}`), lambdaContext())).principalId).toBe(doomed.id);
    expect(await testApiKeys.revoke(doomed.id)).toMatchObject({
      id: doomed.id,
      revokedAt: expect.any(String),
    });
    await expect(authorize(event(`Bearer ${doomed.key}`), lambdaContext())).rejects.toThrow(/^Unauthorized$/);
  });

  it('allows a read-only key GET on every route of the stage, and nothing else', async () => {
    const reader = await testApiKeys.issue('storefront', { scope: 'read-only' });
    const createPetArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/POST/pets';
    for (const methodArn of [METHOD_ARN, createPetArn]) {
      const result = await authorize({ ...event(`Bearer ${reader.key}`), methodArn }, lambdaContext());
      expect(result.policyDocument.Statement).toEqual([
        {
          Action: 'execute-api:Invoke',
          Effect: 'Allow',
          Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/GET/*',
        },
      ]);
      expect(result.context).toEqual({ apiKeyId: reader.id, scope: 'read-only' });
    }
  });

  it('refuses a key from the instant it expires, as an unknown one', async () => {
    const expiring = await testApiKeys.issue('contractor', {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await authorize(event(`Bearer ${expiring.key}`), lambdaContext())).principalId).toBe(expiring.id);
    await testApiKeys.expire(expiring.id, new Date().toISOString());
    await expect(authorize(event(`Bearer ${expiring.key}`), lambdaContext())).rejects.toThrow(
      /^Unauthorized$/,
    );
  });

  it('gives a key stored before scopes existed (no scope attribute) full access', async () => {
    const legacyKey = 'psk_stored-before-scopes';
    const record = {
      id: 'key_legacy',
      name: 'legacy',
      scope: 'full',
      createdAt: '2026-01-01T00:00:00Z',
    } as const;
    const { scope: _scope, ...legacyItem } = apiKeyItem(legacyKey, record);
    await testTable.putIfAbsent(legacyItem);
    const result = await authorize(event(`Bearer ${legacyKey}`), lambdaContext());
    expect(result.policyDocument.Statement).toEqual([
      expect.objectContaining({ Resource: expect.stringMatching(/\/v1\/\*$/) }),
    ]);
  });
});
