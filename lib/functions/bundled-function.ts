// A Lambda function as every one of this project is built: nodejs24.x on ARM64, bundled locally by
// esbuild with the AWS SDK inside (lib/functions/bundling.ts), logging JSON to a log group of its own
// with the stage's retention, traced by X-Ray, with a role of its own that holds only that log group
// until its construct grants more. Its constructs go into the given scope.
import { fileURLToPath } from 'node:url';
import { Validations } from 'aws-cdk-lib';
import type { Duration } from 'aws-cdk-lib';
import type { VersionOptions } from 'aws-cdk-lib/aws-lambda';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { LAMBDA_ESBUILD_OPTIONS } from '#lib/functions/bundling.ts';
import type { StageSettings } from '#lib/stage-settings.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type BundledFunctionProps = {
  /** The handler module, relative to the project root. */
  entry: string;
  settings: StageSettings;
  timeout: Duration;
  environment?: Record<string, string>;
  /** How `currentVersion` publishes, for a function that is published. */
  currentVersionOptions?: VersionOptions;
};

/**
 * A function's log group, with the stage's retention, and its role, which may write there and
 * nothing else yet: its own instead of AWSLambdaBasicExecutionRole.
 */
export function addLogsAndRole(scope: Construct, settings: StageSettings) {
  const logGroup = new LogGroup(scope, 'Logs', {
    retention: settings.logRetention,
    removalPolicy: settings.removalPolicy,
  });
  const role = new Role(scope, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grantWrite(role);
  return { logGroup, role };
}

export function addBundledFunction(scope: Construct, props: BundledFunctionProps) {
  const { settings } = props;
  const { logGroup, role } = addLogsAndRole(scope, settings);
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
  });

  const fn = new NodejsFunction(scope, 'Function', {
    entry: `${PROJECT_ROOT}${props.entry}`,
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
    handler: 'handler',
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: settings.functionMemoryMb,
    timeout: props.timeout,
    tracing: Tracing.ACTIVE,
    role,
    logGroup,
    loggingFormat: LoggingFormat.JSON,
    environment: props.environment,
    currentVersionOptions: props.currentVersionOptions,
    // The options of lib/functions/bundling.ts, in NodejsFunction's terms.
    bundling: {
      format: OutputFormat.CJS,
      target: LAMBDA_ESBUILD_OPTIONS.target,
      mainFields: LAMBDA_ESBUILD_OPTIONS.mainFields,
      minify: LAMBDA_ESBUILD_OPTIONS.minify,
      sourceMap: LAMBDA_ESBUILD_OPTIONS.sourcemap,
      sourcesContent: LAMBDA_ESBUILD_OPTIONS.sourcesContent,
      externalModules: LAMBDA_ESBUILD_OPTIONS.external,
      esbuildArgs: {
        '--alias': Object.entries(LAMBDA_ESBUILD_OPTIONS.alias).map(([from, to]) => `${from}=${to}`),
      },
      // No Docker here or in CI: esbuild from node_modules does the bundling.
      forceDockerBundling: false,
      logLevel: LogLevel.WARNING,
    },
  });
  return { function: fn, role };
}
