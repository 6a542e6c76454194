// Each Lambda function of the stage (lib/functions/petstore-function.ts): runtime, logs, tracing, the
// bundle it deploys (read from the project's cdk.out), and the environment sam/env.json overrides.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { FUNCTION_MANIFESTS, FUNCTION_NAMES, LAMBDA_VARIABLES } from '#functions/manifests.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/timeouts.ts';
import { readRepoJson } from '#test/support/repository.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { FUNCTION_IDS, FUNCTION_ID_OF, environmentOf, logGroupOf, ref } from '#test/lib/templates.ts';

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const { settings, deletionPolicy: kept } = stage;
  const [tableId] = stage.only('AWS::DynamoDB::Table');

  test.each(FUNCTION_IDS)('%s: nodejs24.x on ARM64, traced, JSON logs to its own log group', (functionId) => {
    expect(stage.resource(functionId).Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: settings.functionMemoryMb,
      Timeout: FUNCTION_TIMEOUT_SECONDS,
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogFormat: 'JSON' },
    });
    expect(environmentOf(stage, functionId)).toMatchObject({
      PETSTORE_TABLE_NAME: ref(tableId),
    });
    // Source maps are written but not loaded: Node would parse the whole map in every cold start.
    expect(environmentOf(stage, functionId)).not.toHaveProperty('NODE_OPTIONS');
    expect(stage.resource(logGroupOf(stage, functionId))).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      DeletionPolicy: kept,
      Properties: { RetentionInDays: settings.logRetention },
    });
  });

  test.each(FUNCTION_NAMES.map((name) => [name, FUNCTION_MANIFESTS[name].settings] as const))(
    '%s gets exactly the settings its Lambda handler reads',
    (name, settings) => {
      expect(Object.keys(environmentOf(stage, FUNCTION_ID_OF[name])).toSorted()).toEqual(
        settings.map((setting) => LAMBDA_VARIABLES[setting]).toSorted(),
      );
    },
  );

  test.each(['ListPetsFunction', 'CreatePetFunction', 'GetPetFunction'])(
    "%s is given the usage plan's limits on a key, which its RateLimit-Policy states",
    (functionId) => {
      const limits = environmentOf(stage, functionId)[LAMBDA_VARIABLES.keyLimits];
      expect(JSON.parse(String(limits))).toEqual(settings.perKeyLimits);
    },
  );

  test.each(FUNCTION_IDS)(
    '%s is one minified CommonJS bundle, AWS SDK inside, credentials from the environment only, with a source map',
    (functionId) => {
      // The bundle `cdk deploy` ships, beside the template in the project's cdk.out.
      const assetPath = defined(stage.resource(functionId).Metadata?.['aws:asset:path'], 'asset path');
      const bundle = join(stage.assemblyDir, assetPath, 'index.js');
      const code = readFileSync(bundle, 'utf8');
      // No ES module import of a built-in (its namespace would run the built-in's lazy getters).
      expect(code).not.toMatch(/\bfrom\s*"|^import\s/m);
      const required = [...code.matchAll(/\brequire\(\s*"([^"]+)"\)|\bimport\(\s*"([^"]+)"\)/g)].map(
        ([, from, dynamic]) => from ?? dynamic ?? '',
      );
      expect(required.length).toBeGreaterThan(0);
      expect(required.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
      // functions/lambda-credentials.ts stands in for the default chain: no SSO, no STS client.
      expect(code).toContain('Unable to find environment variable credentials.');
      expect(code).not.toContain('Skipping SSO provider');
      expect(code).not.toContain('AssumeRoleWithWebIdentity');
      // Minified: thousands of characters a line (template literals keep their own line breaks).
      expect(code.length / code.split('\n').length).toBeGreaterThan(1_000);
      expect(existsSync(`${bundle}.map`)).toBe(true);
    },
  );

  test('sam/env.json sets, for every function, variables some function declares', () => {
    // Parameters applies to each function that declares the variable, so a new function needs no entry.
    const { Parameters: variables, ...others } = readRepoJson('sam/env.json') as Record<string, Properties>;
    expect(others).toEqual({});
    const declared = FUNCTION_IDS.flatMap((functionId) => Object.keys(environmentOf(stage, functionId)));
    expect(Object.keys(variables ?? {}).length).toBeGreaterThan(0);
    for (const variable of Object.keys(variables ?? {})) expect(declared).toContain(variable);
  });
});
