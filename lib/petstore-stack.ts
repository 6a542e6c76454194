// One stage of the service: its table, the cursor secret, the four functions, the API and the
// alarms. Its outputs are what operators and the key-management command read.
import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { CursorSecret } from '#lib/cursor-secret.ts';
import { PetstoreAlarms } from '#lib/petstore-alarms.ts';
import { PetstoreApi } from '#lib/petstore-api.ts';
import { PetstoreFunction } from '#lib/petstore-function.ts';
import { PetstoreTable } from '#lib/petstore-table.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import type { TableAccess } from '#lib/table-access.ts';
import { ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';

const ROUTE_TABLE_ACCESS: Record<OperationId, TableAccess> = {
  listPets: 'readPets',
  createPet: 'createPets',
  getPet: 'readPets',
};

const AUTHORIZER_ENTRY = 'functions/authorizer.ts';

const constructId = (operationId: string) => operationId[0]?.toUpperCase() + operationId.slice(1);

export type PetstoreStackProps = StackProps & { settings: StageSettings };

export class PetstoreStack extends Stack {
  readonly table: PetstoreTable;
  readonly api: PetstoreApi;
  readonly alarms: PetstoreAlarms;

  constructor(scope: Construct, id: string, { settings, ...props }: PetstoreStackProps) {
    super(scope, id, { description: `Pet store API, ${settings.name} stage`, ...props });
    this.table = new PetstoreTable(this, 'Table', settings);
    const cursorSecret = new CursorSecret(this, 'CursorSecret', settings);
    const routeEnvironment: Partial<Record<OperationId, Record<string, string>>> = {
      listPets: { PETSTORE_CURSOR_SECRET: cursorSecret.dynamicReference },
    };

    const petstoreFunction = (name: string, entry: string, tableAccess: TableAccess, environment = {}) =>
      new PetstoreFunction(this, name, {
        entry,
        logicalId: `${name}Function`,
        table: this.table,
        tableAccess,
        settings,
        environment,
      }).function;

    const routeFunctions = {} as Record<OperationId, IFunction>;
    for (const { operationId, entry } of ROUTES) {
      routeFunctions[operationId] = petstoreFunction(
        constructId(operationId),
        entry,
        ROUTE_TABLE_ACCESS[operationId],
        routeEnvironment[operationId],
      );
    }
    const authorizerFunction = petstoreFunction('Authorizer', AUTHORIZER_ENTRY, 'readApiKeys');

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
