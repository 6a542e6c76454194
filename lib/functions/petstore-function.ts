// One Lambda function of the service (lib/functions/bundled-function.ts), its role holding only the
// table access it is given. Each deployment publishes a version, and API Gateway invokes the alias
// `live`, which CodeDeploy moves to it (lib/functions/petstore-rollout.ts).
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Alias } from 'aws-cdk-lib/aws-lambda';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { addBundledFunction } from '#lib/functions/bundled-function.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { grantTableAccess } from '#lib/data/table-access.ts';
import type { TableAccess } from '#shared/store/table-access.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/timeouts.ts';

/** Above the DynamoDB client's worst case (shared/timeouts.ts), below API Gateway's 29 s. */
const TIMEOUT = Duration.seconds(FUNCTION_TIMEOUT_SECONDS);

/** The alias API Gateway invokes: the version in service. */
const LIVE_ALIAS = 'live';

export type PetstoreFunctionProps = {
  /** The handler module, relative to the project root (`entry` in functions/manifests.ts). */
  entry: string;
  /** A fixed CloudFormation logical id, so that sam local commands can name it. */
  logicalId: string;
  table: ITable;
  tableAccess: TableAccess;
  settings: StageSettings;
  /** What its Lambda handler reads at cold start (functions/lambda-environment.ts). */
  environment?: Record<string, string>;
};

export class PetstoreFunction extends Construct {
  readonly function: NodejsFunction;
  /** What API Gateway invokes; its metrics are those of the versions it points at. */
  readonly alias: Alias;

  constructor(scope: Construct, id: string, props: PetstoreFunctionProps) {
    super(scope, id);
    const { function: fn, role } = addBundledFunction(this, {
      entry: props.entry,
      settings: props.settings,
      timeout: TIMEOUT,
      environment: props.environment,
      // RetainExceptOnCreate: a release keeps the version it replaces, the way back by hand
      // (docs/deployment.md), and `npm run prune-versions` bounds how many stay. A release that is
      // rolled back deletes the version it made: one left behind would hold the same code and
      // configuration as the retry's, and Lambda would publish nothing for it.
      currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE },
    });
    this.function = fn;
    (fn.node.defaultChild as CfnFunction).overrideLogicalId(props.logicalId);
    // currentVersion publishes a new version whenever the code or configuration changes.
    this.alias = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: fn.currentVersion });
    grantTableAccess(role, props.table, props.tableAccess);
  }
}
