// One stage of the service: its table, the cursor secret, the four functions, the API and the
// alarms. Its outputs are what operators and the key-management command read.
import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { PetstoreAlarms } from '#lib/petstore-alarms.ts';
import { PetstoreApi } from '#lib/petstore-api.ts';
import { PetstoreCursorSecret } from '#lib/petstore-cursor-secret.ts';
import { PetstoreFunction } from '#lib/petstore-function.ts';
import { PETSTORE_FUNCTIONS } from '#lib/petstore-functions.ts';
import type { PetstoreFunctionName } from '#lib/petstore-functions.ts';
import { PetstoreTable } from '#lib/petstore-table.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';

/** listPets -> ListPets: the construct id, and with `Function` the fixed logical id. */
const constructId = (name: PetstoreFunctionName) => name[0]?.toUpperCase() + name.slice(1);

export type PetstoreStackProps = StackProps & { settings: StageSettings };

export class PetstoreStack extends Stack {
  readonly table: PetstoreTable;
  readonly api: PetstoreApi;
  readonly alarms: PetstoreAlarms;

  constructor(scope: Construct, id: string, { settings, ...props }: PetstoreStackProps) {
    super(scope, id, { description: `Pet store API, ${settings.name} stage`, ...props });
    this.table = new PetstoreTable(this, 'Table', settings);
    const cursorSecret = new PetstoreCursorSecret(this, 'CursorSecret', settings);

    const petstoreFunction = (name: PetstoreFunctionName) => {
      const { entry, tableAccess, readsCursorSecret } = PETSTORE_FUNCTIONS[name];
      return new PetstoreFunction(this, constructId(name), {
        entry,
        logicalId: `${constructId(name)}Function`,
        table: this.table,
        tableAccess,
        settings,
        // The variable shared/http/pagination.ts reads.
        environment: readsCursorSecret ? { PETSTORE_CURSOR_SECRET: cursorSecret.dynamicReference } : {},
      }).function;
    };

    const routeFunctions = {} as Record<OperationId, IFunction>;
    for (const { operationId } of ROUTES) routeFunctions[operationId] = petstoreFunction(operationId);
    const authorizerFunction = petstoreFunction('authorizer');

    this.api = new PetstoreApi(this, 'Api', { settings, routeFunctions, authorizerFunction });
    this.alarms = new PetstoreAlarms(this, 'Alarms', {
      settings,
      apiStage: this.api.restApi.deploymentStage,
      routeFunctions,
      authorizerFunction,
      table: this.table,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base address, ending in /v1' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });
    new CfnOutput(this, 'UsagePlanId', { value: this.api.usagePlan.usagePlanId });
  }
}
