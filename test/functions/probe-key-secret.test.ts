// The probe key's secret (functions/probe/key-secret.ts): what `npm run keys -- probe` writes is what
// the canary reads back, and anything else in the secret, such as the stack's placeholder, is no key.
import { describe, expect, it } from '@jest/globals';
import { decodeProbeKeySecret, encodeProbeKeySecret } from '#functions/probe/key-secret.ts';

describe("the probe key's secret", () => {
  it('is written as JSON with the key and its id only, and read back as it was', () => {
    const held = { keyId: 'key_0a1b', apiKey: 'psk_secret', name: 'probe' };
    const text = encodeProbeKeySecret(held);
    expect(text).toBe('{"keyId":"key_0a1b","apiKey":"psk_secret"}');
    expect(decodeProbeKeySecret(text)).toEqual({ keyId: 'key_0a1b', apiKey: 'psk_secret' });
  });

  it.each([
    ['nothing', undefined],
    ['a generated password', 'x7#Jq!generated-password'],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['no key id', '{"apiKey":"psk_secret"}'],
    ['an empty key', '{"keyId":"key_0a1b","apiKey":""}'],
    ['a key that is no string', '{"keyId":"key_0a1b","apiKey":42}'],
  ])('holds no key when it holds %s', (_what, text) => {
    expect(decodeProbeKeySecret(text)).toBeUndefined();
  });
});
