// The cursor secret (lib/data/petstore-cursor-secret.ts) and the one function the stack hands it to.
import { describe, expect, test } from '@jest/globals';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, environmentOf, ref } from '#test/lib/templates.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { template, deletionPolicy: kept } = stage;

  test('only listPets gets the cursor secret, as a dynamic reference to the generated secret', () => {
    // The other secret is the probe's key (lib/monitoring/probe-canary.ts).
    const [secretId] = defined(
      stage.all('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('CursorSecret')),
      'the cursor secret',
    );
    template.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: kept,
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } },
    });
    expect(environmentOf(stage, 'ListPetsFunction').PETSTORE_CURSOR_SECRET).toEqual({
      'Fn::Join': ['', ['{{resolve:secretsmanager:', ref(secretId), ':SecretString:::}}']],
    });
    for (const functionId of FUNCTION_IDS.filter((id) => id !== 'ListPetsFunction')) {
      expect(environmentOf(stage, functionId)).not.toHaveProperty('PETSTORE_CURSOR_SECRET');
    }
  });
});
