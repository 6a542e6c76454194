// The stage's synthetic probe (lib/monitoring/probe-canary.ts) and its alarm, ProbeFailed: the canary
// runs the bundled steps every 5 minutes against the stage's base URL, reads its key from a secret at
// run time (so that the key is in no template), keeps its results in a private bucket that goes with
// the stack, and pages when it fails or stops.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { PROBE_VARIABLES } from '#functions/probe/variables.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { arnOf, ref, referencedId } from '#test/lib/templates.ts';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** An API key as `npm run keys` issues them (shared/store/api-key-store.ts): psk_ and 43 characters. */
const API_KEY_LIKE = /psk_[\w-]{20,}/;

describe.each([synthesized.staging, synthesized.production])('the $name probe', (stage: SynthesizedStage) => {
  const { name, settings, template } = stage;
  const [canaryId, canary] = stage.only('AWS::Synthetics::Canary');
  const { RunConfig: runConfig } = canary.Properties as { RunConfig: { EnvironmentVariables: Properties } };
  const environment = runConfig.EnvironmentVariables;
  const secretId = referencedId(environment[PROBE_VARIABLES.keySecretArn]);
  const roleId = referencedId(canary.Properties.ExecutionRoleArn);
  const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;

  test(`a canary petstore-${name} on the newest Node.js Synthetics runtime, every 5 minutes`, () => {
    expect(canary.Properties).toMatchObject({
      Name: `petstore-${name}`,
      RuntimeVersion: 'syn-nodejs-playwright-6.0',
      Code: { Handler: 'canary.handler' },
      Schedule: { Expression: 'rate(5 minutes)' },
      StartCanaryAfterCreation: true,
      // Synthetics makes the canary's function and layers: deleting the canary deletes them.
      ProvisionedResourceCleanup: 'AUTOMATIC',
    });
    // A run ends before the next one starts.
    expect(Number((canary.Properties.RunConfig as Properties).TimeoutInSeconds)).toBeLessThanOrEqual(300);
  });

  test("its environment: the stage's base URL, the key's secret, whether it creates", () => {
    expect(environment).toEqual({
      [PROBE_VARIABLES.baseUrl]: defined(outputs.ApiUrl, 'the ApiUrl output').Value,
      [PROBE_VARIABLES.keySecretArn]: ref(secretId),
      [PROBE_VARIABLES.creates]: String(settings.probe.creates),
    });
    expect(defined(outputs.ProbeKeySecretArn, 'the ProbeKeySecretArn output').Value).toEqual(ref(secretId));
  });

  test('the key is in no template: its secret holds a generated placeholder until npm run keys stores one', () => {
    const secret = stage.resource(secretId);
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties.GenerateSecretString).toBeDefined();
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(JSON.stringify(template.toJSON())).not.toMatch(API_KEY_LIKE);
  });

  test('its role may read that secret, and no other', () => {
    const inline = (
      (stage.resource(roleId).Properties.Policies ?? []) as { PolicyDocument: Properties }[]
    ).map(({ PolicyDocument }) => PolicyDocument);
    const attached = stage
      .all('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(JSON.stringify(ref(roleId))))
      .map(([, policy]) => policy.Properties.PolicyDocument as Properties);
    const statements = [...inline, ...attached].flatMap(({ Statement }) => Statement as Statement[]);
    const actionsOf = ({ Action }: Statement) => [Action].flat();
    const secretStatements = statements.filter((statement) =>
      actionsOf(statement).some(
        (action) => action === '*' || action.toLowerCase().startsWith('secretsmanager:'),
      ),
    );
    expect(secretStatements).toHaveLength(1);
    expect(secretStatements[0]).toMatchObject({ Effect: 'Allow', Resource: ref(secretId) });
    expect(actionsOf(defined(secretStatements[0], 'the statement'))).toContain(
      'secretsmanager:GetSecretValue',
    );
  });

  test("its role writes only its own function's log group, which has a retention and goes with the stack", () => {
    const [logsId, logs] = defined(
      stage
        .all('AWS::Logs::LogGroup')
        .find(([, group]) => String(JSON.stringify(group.Properties.LogGroupName)).includes('cwsyn-')),
      "the canary's log group",
    );
    // Synthetics names the function cwsyn-<canary name>-<canary id>.
    expect(logs.Properties.LogGroupName).toEqual({
      'Fn::Join': ['', [`/aws/lambda/cwsyn-petstore-${name}-`, { 'Fn::GetAtt': [canaryId, 'Id'] }]],
    });
    expect(logs.Properties.RetentionInDays).toBe(settings.logRetention);
    expect(logs).toMatchObject({ DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' });
    const logStatements = stage
      .all('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(JSON.stringify(ref(roleId))))
      .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .concat(
        (
          (stage.resource(roleId).Properties.Policies ?? []) as {
            PolicyDocument: { Statement: Statement[] };
          }[]
        ).flatMap(({ PolicyDocument }) => PolicyDocument.Statement),
      )
      .filter(({ Action }) => [Action].flat().some((action) => action.startsWith('logs:')));
    expect(logStatements).toEqual([
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: arnOf(logsId) },
    ]);
  });

  test('its secret lets no principal but the canary and CloudFormation read the key', () => {
    const [, policy] = stage.only('AWS::SecretsManager::ResourcePolicy');
    expect(policy.Properties.SecretId).toEqual(ref(secretId));
    expect(policy.Properties.ResourcePolicy).toMatchObject({
      Statement: [
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'secretsmanager:GetSecretValue',
          Condition: {
            ArnNotEquals: {
              'aws:PrincipalArn': [
                arnOf(roleId),
                { 'Fn::Sub': expect.stringMatching(/:role\/cdk-petstore-cfn-exec-role-/) },
              ],
            },
          },
        },
      ],
    });
  });

  test('its code: canary.js of the synthesized assembly, reading the three variables and holding no key', () => {
    const objectKey = String((canary.Properties.Code as Properties).S3Key);
    const manifest = JSON.parse(
      readFileSync(join(stage.assemblyDir, `${stage.artifactId}.assets.json`), 'utf8'),
    ) as {
      files: Record<string, { source: { path: string; packaging?: string } }>;
    };
    const asset = defined(manifest.files[objectKey.replace(/\.zip$/, '')], `the asset ${objectKey}`);
    expect(asset.source.packaging).toBe('zip');
    const file = join(stage.assemblyDir, asset.source.path, 'canary.js');
    expect(existsSync(file)).toBe(true);
    const code = readFileSync(file, 'utf8');
    for (const variable of Object.values(PROBE_VARIABLES)) expect(code).toContain(variable);
    expect(code).not.toMatch(API_KEY_LIKE);
  });

  describe('its run results', () => {
    const bucketLocation = JSON.stringify(canary.Properties.ArtifactS3Location);
    const [bucketId, bucket] = defined(
      stage.all('AWS::S3::Bucket').find(([id]) => bucketLocation.includes(JSON.stringify(ref(id)))),
      "the canary's bucket",
    );

    test('in a bucket that blocks public access and expires them', () => {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Properties[] }).Rules;
      expect(rules).toEqual([
        expect.objectContaining({ Status: 'Enabled', ExpirationInDays: expect.any(Number) }),
      ]);
    });

    test('reached over TLS only', () => {
      const [, policy] = defined(
        stage
          .all('AWS::S3::BucketPolicy')
          .find(([, found]) => JSON.stringify(found.Properties.Bucket) === JSON.stringify(ref(bucketId))),
        'the bucket policy',
      );
      const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: [arnOf(bucketId), { 'Fn::Join': ['', [arnOf(bucketId), '/*']] }],
        }),
      );
    });

    test('deleted with the stack, emptied first, once the canary that writes there is gone', () => {
      expect(bucket.DeletionPolicy).toBe('Delete');
      const emptiers = stage
        .all('Custom::S3AutoDeleteObjects')
        .filter(
          ([, resource]) => JSON.stringify(resource.Properties.BucketName) === JSON.stringify(ref(bucketId)),
        );
      expect(emptiers).toHaveLength(1);
      // CloudFormation deletes a resource before what it depends on: the canary before the emptying.
      const [[emptierId] = []] = emptiers;
      expect([canary.DependsOn].flat()).toContain(emptierId);
    });
  });

  test('ProbeFailed: no run passed in 10 minutes (two runs), or none ran; it pages', () => {
    const alarms = stage.all('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('AlarmsProbeFailed'));
    expect(alarms).toHaveLength(1);
    const [[alarmId = '', alarm] = []] = alarms;
    expect(defined(alarm, 'ProbeFailed').Properties).toMatchObject({
      Namespace: 'CloudWatchSynthetics',
      MetricName: 'SuccessPercent',
      Dimensions: [{ Name: 'CanaryName', Value: ref(canaryId) }],
      Statistic: 'Maximum',
      Period: 600,
      Threshold: 100,
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'breaching',
    });
    // Two runs in the window: one failed run alone, with the next one passing, pages no one.
    expect(Number(alarm?.Properties.Period)).toBe(
      2 *
        60 *
        Number(
          /rate\((\d+) minutes\)/.exec(String((canary.Properties.Schedule as Properties).Expression))?.[1],
        ),
    );
    const [, page] = defined(
      stage.all('AWS::CloudWatch::CompositeAlarm').find(([id]) => id.startsWith('AlarmsPage')),
      'the page',
    );
    expect(JSON.stringify(page.Properties.AlarmRule)).toContain(
      JSON.stringify({ 'Fn::GetAtt': [alarmId, 'Arn'] }),
    );
  });
});
