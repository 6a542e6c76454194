// The stage's synthetic probe: a CloudWatch Synthetics canary that runs functions/probe/steps.ts every
// 5 minutes from outside, as a client does, with the key `npm run keys -- probe --stage` stores in a
// secret only the canary may read (so it is in no template, environment or log). Its role reaches its
// own bucket, secret and log group alone. Bundled by esbuild, as the functions are.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Stage, Validations } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Canary, Code, Runtime, Schedule, Test } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { executionRoleArn } from '#lib/deploy-policies.ts';
import { LAMBDA_ESBUILD_OPTIONS } from '#lib/functions/bundling.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { PROBE_VARIABLES } from '#functions/probe/variables.ts';

/**
 * The newest Node.js Synthetics runtime aws-cdk-lib offers (Node.js 22). The probe starts no browser;
 * syn-nodejs-3.x, the runtime without one, is on Node.js 20, which Lambda no longer supports.
 */
const RUNTIME = Runtime.SYNTHETICS_NODEJS_PLAYWRIGHT_6_0;
const ENTRY = fileURLToPath(new URL('../../functions/probe/canary.ts', import.meta.url));
/** How often the probe runs: Synthetics' rates are whole minutes. */
export const PROBE_INTERVAL = Duration.minutes(5);
/** Each run's screenshots-free results: kept as long as Synthetics keeps its run data by default. */
const ARTIFACT_DAYS = 31;

export type ProbeCanaryProps = {
  settings: StageSettings;
  /** The base address the probe calls, ending in /v1: what clients use. */
  baseUrl: string;
};

/** canary.js's text: bundled once in a process, for every stage it synthesizes. */
let bundled: string | undefined;

/** canary.js, the handler module, in a directory of its own in the assembly: the canary's code asset. */
function bundleCanary(assemblyDir: string): string {
  bundled ??= buildSync({
    ...LAMBDA_ESBUILD_OPTIONS,
    entryPoints: [ENTRY],
    outfile: 'canary.js',
    write: false,
    target: 'node22',
    // No map beside the code: the asset is the directory, and a map would only grow it.
    sourcemap: false,
  }).outputFiles[0]?.text;
  if (bundled === undefined) throw new Error(`esbuild wrote nothing for ${ENTRY}`);
  const outdir = join(assemblyDir, 'probe-canary');
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, 'canary.js'), bundled);
  return outdir;
}

export class ProbeCanary extends Construct {
  readonly canary: Canary;
  readonly keySecret: Secret;

  constructor(scope: Construct, id: string, { settings, baseUrl }: ProbeCanaryProps) {
    super(scope, id);
    const assemblyDir = Stage.of(this)?.outdir;
    if (!assemblyDir) throw new Error('The probe needs a Stage: its code is bundled into its assembly');
    // Neither holds data, whatever the stage keeps: a key is issued again, a run's results expire.
    // A placeholder until `npm run keys -- probe` stores a key: till then each run fails, saying so.
    this.keySecret = new Secret(this, 'KeySecret', {
      description: `Pet store ${settings.name}: the probe's API key, stored by npm run keys -- probe`,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const artifacts = new Bucket(this, 'Artifacts', {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      lifecycleRules: [{ expiration: Duration.days(ARTIFACT_DAYS) }],
      removalPolicy: RemovalPolicy.DESTROY,
      // S3 deletes no bucket that holds objects: a custom resource empties it first.
      autoDeleteObjects: true,
    });
    // Fixed: an operator finds it by name; at most 21 characters, unique in the account and region.
    const canaryName = `petstore-${settings.name}`;
    const role = this.canaryRole(artifacts);
    this.canary = new Canary(this, 'Canary', {
      canaryName,
      role,
      runtime: RUNTIME,
      test: Test.custom({
        code: Code.fromAsset(bundleCanary(assemblyDir)),
        handler: 'canary.handler',
      }),
      schedule: Schedule.rate(PROBE_INTERVAL),
      timeout: Duration.minutes(1),
      environmentVariables: {
        [PROBE_VARIABLES.baseUrl]: baseUrl,
        [PROBE_VARIABLES.keySecretArn]: this.keySecret.secretArn,
        [PROBE_VARIABLES.creates]: String(settings.probe.creates),
      },
      artifactsBucketLocation: { bucket: artifacts },
      // Synthetics makes the canary's function and layers itself: deleting the canary deletes them.
      provisionedResourceCleanup: true,
    });
    this.keySecret.grantRead(role);
    this.onlyTheCanaryReadsTheKey(role);
    this.addLogGroup(canaryName, role, settings);
    // Deleted before the bucket is emptied: a last run would write its results after the emptying,
    // and S3 deletes no bucket that holds objects (aws-cdk#20660).
    const emptying = artifacts.node.tryFindChild('AutoDeleteObjectsCustomResource');
    if (!emptying) throw new Error("The probe's bucket has no AutoDeleteObjectsCustomResource to wait for");
    this.canary.node.addDependency(emptying);
    this.acknowledgeNagFindings(artifacts);
  }

  /** The canary's role: its results into its bucket, its metrics; its key and logs are added after. */
  private canaryRole(artifacts: Bucket): Role {
    const role = new Role(this, 'Role', {
      description: 'Pet store probe canary: its results, metrics, key and log group only',
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    role.addToPolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [artifacts.arnForObjects('*')] }),
    );
    role.addToPolicy(
      new PolicyStatement({ actions: ['s3:GetBucketLocation'], resources: [artifacts.bucketArn] }),
    );
    // Synthetics lists the buckets before it writes a run's results; the call takes no resource.
    role.addToPolicy(new PolicyStatement({ actions: ['s3:ListAllMyBuckets'], resources: ['*'] }));
    role.addToPolicy(
      new PolicyStatement({
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': 'CloudWatchSynthetics' } },
      }),
    );
    return role;
  }

  /** A secret policy that refuses the key's value to every principal but the canary and CloudFormation. */
  private onlyTheCanaryReadsTheKey(role: Role) {
    this.keySecret.addToResourcePolicy(
      new PolicyStatement({
        sid: 'OnlyTheCanaryAndTheDeployRead',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['secretsmanager:GetSecretValue'],
        resources: ['*'],
        conditions: {
          ArnNotEquals: {
            'aws:PrincipalArn': [role.roleArn, executionRoleArn(this)],
          },
        },
      }),
    );
  }

  /**
   * The canary function's log group, made here so that it has a retention and goes with the stack.
   * Synthetics names the function cwsyn-<canary name>-<canary id>. The role may not create log groups, so
   * a run before this exists logs nothing rather than make one that outlives the stack.
   */
  private addLogGroup(canaryName: string, role: Role, settings: StageSettings) {
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/cwsyn-${canaryName}-${this.canary.canaryId}`,
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A policy of its own: the canary's role must exist before the canary, this after it.
    new Policy(this, 'LogWriting', {
      roles: [role],
      statements: [
        new PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [logGroup.logGroupArn],
        }),
      ],
    });
  }

  private acknowledgeNagFindings(artifacts: Bucket) {
    Validations.of(this.keySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'An API key of the service, not a database password: npm run keys -- probe issues a new one and retires the old, which Secrets Manager rotation cannot do.',
    });
    Validations.of(artifacts).acknowledge({
      id: 'AwsSolutions-S1',
      reason: "Only the canary writes here, its own run results; CloudTrail records the bucket's API calls.",
    });
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(artifacts.node.defaultChild as CfnBucket);
    Validations.of(this.canary.role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          "The canary's role: s3:ListAllMyBuckets and cloudwatch:PutMetricData (limited to the CloudWatchSynthetics namespace) support no resource-level permissions.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
        reason: "The canary writes each run's results as new objects of its own bucket.",
      },
    );
  }
}
