// CodeDeploy's BeforeAllowTraffic hooks: for each function, a hook function (functions/rollout-hook.ts)
// that invokes the version being deployed with requests whose right answers are known and reports the
// verdict, so that a wrong version is rolled back before any traffic reaches it. The authorizer's hook
// needs a key the authorizer accepts: the stack keeps one in the table, the hook key.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { Alias, CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { addBundledFunction, addLogsAndRole } from '#lib/functions/bundled-function.ts';
import type { FunctionName } from '#functions/manifests.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { apiKeyItem, hashApiKey } from '#shared/store/api-key-store.ts';
import { API_KEY_PARTITION, apiKeyItemKey } from '#shared/store/table.ts';

/**
 * The hook key: not a secret. No API key of the usage plan goes with it, so API Gateway answers 401 to
 * any request that carries it: it passes the authorizer and opens nothing.
 */
export const ROLLOUT_HOOK_KEY = 'psk_rollout-hook';
const HOOK_KEY_ID = 'key_rollout_hook';
/** The table item the stack keeps for it, as `npm run keys` would store a key. */
export const ROLLOUT_HOOK_KEY_ITEM = apiKeyItem(ROLLOUT_HOOK_KEY, {
  id: HOOK_KEY_ID,
  name: 'rollout hook (the stack keeps it: do not revoke)',
  scope: 'full',
  // Fixed, so that the template is the same at every synthesis.
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** Long enough for a cold version to answer every request at its own timeout. */
const HOOK_TIMEOUT = Duration.minutes(1);

export type RolloutHooksProps = {
  settings: StageSettings;
  table: ITable;
  /** Each function's `live` alias, by name: a deployment moves it to `alias.version`. */
  aliases: Record<FunctionName, Alias>;
};

/** An item of only string attributes in DynamoDB's own JSON, as the SDK call sends it. */
const attributeValues = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).map(([name, value]) => [name, { S: String(value) }]));

export class RolloutHooks extends Construct {
  /** The hook function of each function's deployment group. */
  readonly functions = {} as Record<FunctionName, IFunction>;

  constructor(scope: Construct, id: string, { settings, table, aliases }: RolloutHooksProps) {
    super(scope, id);
    const hookKey = this.keepHookKey(table, settings);
    for (const [name, { version }] of Object.entries(aliases) as [FunctionName, Alias][]) {
      const { function: hook, role } = addBundledFunction(new Construct(this, name), {
        entry: 'functions/rollout-hook.ts',
        settings,
        timeout: HOOK_TIMEOUT,
        // The variables functions/rollout-hook.ts reads.
        environment: {
          PETSTORE_ROLLOUT_CHECK: name,
          PETSTORE_ROLLOUT_TARGET: version.functionArn,
          ...(name === 'authorizer' && { PETSTORE_ROLLOUT_HOOK_KEY: ROLLOUT_HOOK_KEY }),
        },
      });
      version.grantInvoke(role);
      if (name === 'authorizer') hook.node.addDependency(hookKey);
      this.functions[name] = hook;
    }
  }

  /**
   * CodeDeploy's role may invoke each hook, as the deployment group grants it: the function and
   * its versions (`:*`). The hooks publish no versions, so that is the function alone.
   */
  acknowledgeHookInvocations(codeDeployRole: Role) {
    for (const hook of Object.values(this.functions)) {
      const logicalId = Stack.of(this).resolve((hook.node.defaultChild as CfnFunction).logicalId) as string;
      Validations.of(codeDeployRole).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>:*]`,
        reason:
          "The deployment group's grant to invoke its hook: the function and its versions; the hooks publish none.",
      });
    }
  }

  /**
   * The hook key's item, written on create and update, deleted with the stack, by aws-cdk-lib's
   * AwsCustomResource function, with a role and log group of ours: it may write and delete API key
   * items only, and log to its own group.
   */
  private keepHookKey(table: ITable, settings: StageSettings): AwsCustomResource {
    const { logGroup, role } = addLogsAndRole(new Construct(this, 'HookKeyWriter'), settings);
    const put: AwsSdkCall = {
      service: 'DynamoDB',
      action: 'putItem',
      parameters: { TableName: table.tableName, Item: attributeValues(ROLLOUT_HOOK_KEY_ITEM) },
      physicalResourceId: PhysicalResourceId.of(HOOK_KEY_ID),
    };
    return new AwsCustomResource(this, 'HookKey', {
      onCreate: put,
      onUpdate: put,
      onDelete: {
        service: 'DynamoDB',
        action: 'deleteItem',
        parameters: {
          TableName: table.tableName,
          Key: attributeValues(apiKeyItemKey(hashApiKey(ROLLOUT_HOOK_KEY))),
        },
      },
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({
          actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [API_KEY_PARTITION] } },
        }),
      ]),
      installLatestAwsSdk: false,
      role,
      logGroup,
    });
  }
}
