// One Lambda function of the service: nodejs24.x on ARM64, bundled locally by esbuild into one
// minified CommonJS file with the AWS SDK inside (a pinned SDK, no runtime-provided surprises) and
// a source map beside it (lib/bundling.ts), logging to its own log group with the stage's
// retention, traced by X-Ray. Its role holds only its log group and the table access it is given.
// Each deployment publishes a version, and callers invoke the alias `live`, which CodeDeploy moves
// to it (lib/petstore-rollout.ts).
import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { LAMBDA_ESBUILD_OPTIONS } from '#lib/bundling.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { grantTableAccess } from '#lib/table-access.ts';
import type { TableAccess } from '#lib/table-access.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/timeouts.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Above the DynamoDB client's worst case (shared/timeouts.ts), below API Gateway's 29 s. */
const TIMEOUT = Duration.seconds(FUNCTION_TIMEOUT_SECONDS);

/** The alias API Gateway invokes: the version in service. */
const LIVE_ALIAS = 'live';

export type PetstoreFunctionProps = {
  /** The handler module, relative to the project root (`entry` in lib/petstore-functions.ts). */
  entry: string;
  /** A fixed CloudFormation logical id, so sam local commands and sam/env.json can name it. */
  logicalId: string;
  table: ITable;
  tableAccess: TableAccess;
  settings: StageSettings;
  environment?: Record<string, string>;
};

export class PetstoreFunction extends Construct {
  readonly function: NodejsFunction;
  /** What API Gateway invokes; its metrics are those of the versions it points at. */
  readonly alias: Alias;

  constructor(scope: Construct, id: string, props: PetstoreFunctionProps) {
    super(scope, id);
    const { settings } = props;
    const logGroup = new LogGroup(this, 'Logs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    // Its own role instead of AWSLambdaBasicExecutionRole: write to this log group only.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: `${PROJECT_ROOT}${props.entry}`,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: settings.functionMemoryMb,
      timeout: TIMEOUT,
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        PETSTORE_TABLE_NAME: props.table.tableName,
        ...props.environment,
      },
      // The options of lib/bundling.ts (which `npm run bench` measures), in NodejsFunction's terms.
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
    (this.function.node.defaultChild as CfnFunction).overrideLogicalId(props.logicalId);
    // currentVersion publishes a new version whenever the code or configuration changes; old
    // versions are retained, so the alias can be moved back to one by hand.
    this.alias = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.function.currentVersion });
    grantTableAccess(role, props.table, props.tableAccess);

    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
    });
  }
}
