// One stage of the service: its table, the cursor secret, the four functions and their rollout, the
// API (behind the stage's web ACL, under its custom domain when it has them), and what on-call
// watches (lib/monitoring/). Its outputs are what operators and tools outside CDK need.
import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { PetstoreApi } from '#lib/api/petstore-api.ts';
import { PetstoreCursorSecret } from '#lib/data/petstore-cursor-secret.ts';
import { PetstoreFirewall } from '#lib/api/petstore-firewall.ts';
import { PetstoreFunction } from '#lib/functions/petstore-function.ts';
import { PetstoreRollout } from '#lib/functions/petstore-rollout.ts';
import { lambdaEnvironment } from '#functions/lambda-environment.ts';
import { FUNCTION_MANIFESTS } from '#functions/manifests.ts';
import type { FunctionName } from '#functions/manifests.ts';
import { PetstoreTable } from '#lib/data/petstore-table.ts';
import { addInitDurationMetric } from '#lib/monitoring/init-duration.ts';
import { addLogQueries } from '#lib/monitoring/log-queries.ts';
import { ProbeCanary } from '#lib/monitoring/probe-canary.ts';
import { SloAlarms } from '#lib/monitoring/slo-alarms.ts';
import { StageAlarms } from '#lib/monitoring/stage-alarms.ts';
import { StageDashboard } from '#lib/monitoring/stage-dashboard.ts';
import { stageMetrics } from '#lib/monitoring/stage-metrics.ts';
import { stageMetricsNamespace } from '#lib/api/access-log-metrics.ts';
import type { StageSettings } from '#lib/stage-settings.ts';
import { ROUTES } from '#shared/http/routes.ts';
import type { OperationId } from '#shared/http/routes.ts';

/** listPets -> ListPets: the construct id, and with `Function` the fixed logical id. */
const constructId = (name: string) => name[0]?.toUpperCase() + name.slice(1);

/** The same names, each with what `pick` takes from its function (and its name). */
function mapFunctions<Name extends string, Picked>(
  functions: Record<Name, PetstoreFunction>,
  pick: (fn: PetstoreFunction, name: Name) => Picked,
): Record<Name, Picked> {
  const entries = (Object.entries(functions) as [Name, PetstoreFunction][]).map(([name, fn]) => [
    name,
    pick(fn, name),
  ]);
  return Object.fromEntries(entries) as Record<Name, Picked>;
}

export type PetstoreStackProps = StackProps & { settings: StageSettings };

export class PetstoreStack extends Stack {
  readonly table: PetstoreTable;
  readonly api: PetstoreApi;
  readonly alarms: StageAlarms;
  readonly rollout: PetstoreRollout;
  readonly firewall?: PetstoreFirewall;

  constructor(scope: Construct, id: string, { settings, ...props }: PetstoreStackProps) {
    super(scope, id, { description: `Pet store API, ${settings.name} stage`, ...props });
    this.table = new PetstoreTable(this, 'Table', settings);
    const cursorSecret = new PetstoreCursorSecret(this, 'CursorSecret', settings);

    const petstoreFunction = (name: FunctionName) => {
      const { entry, tableAccess } = FUNCTION_MANIFESTS[name];
      return new PetstoreFunction(this, constructId(name), {
        entry,
        logicalId: `${constructId(name)}Function`,
        table: this.table,
        tableAccess,
        settings,
        environment: lambdaEnvironment(name, {
          tableName: this.table.tableName,
          cursorSecret: cursorSecret.dynamicReference,
          petShards: String(settings.petShards),
          stage: settings.name,
          keyLimits: JSON.stringify(settings.perKeyLimits),
        }),
      });
    };

    const routes = {} as Record<OperationId, PetstoreFunction>;
    for (const { operationId } of ROUTES) routes[operationId] = petstoreFunction(operationId);
    const authorizer = petstoreFunction('authorizer');

    // API Gateway invokes the aliases; the alarms watch the functions, every version at once.
    this.api = new PetstoreApi(this, 'Api', {
      settings,
      routeFunctions: mapFunctions(routes, ({ alias }) => alias),
      authorizerFunction: authorizer.alias,
    });
    // A repeated cache key parameter must not reach the cache: the web ACL answers it first.
    if (settings.listCache && !settings.firewall)
      throw new Error(
        `${settings.name}: listCache needs the firewall, whose rules keep repeated parameters out of it`,
      );
    if (settings.firewall) {
      this.firewall = new PetstoreFirewall(this, 'Firewall', {
        settings,
        ...settings.firewall,
        apiStage: this.api.restApi.deploymentStage,
      });
    }
    this.alarms = this.addMonitoring(settings, { ...routes, authorizer });
    this.rollout = new PetstoreRollout(this, 'Rollout', {
      settings,
      table: this.table,
      aliases: mapFunctions({ ...routes, authorizer }, ({ alias }) => alias),
      rolloutAlarms: (name) => this.alarms.rolloutAlarms(name),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base address, ending in /v1' });
    if (this.api.domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: this.api.domain.domainNameAliasDomainName,
        description: "Where the custom domain's DNS record points (CNAME, or alias with DomainTargetZone)",
      });
      new CfnOutput(this, 'DomainTargetZone', { value: this.api.domain.domainNameAliasHostedZoneId });
    }
    new CfnOutput(this, 'Region', {
      value: this.region,
      description: "The stage's region: where npm run keys -- --stage reaches the table and usage plan",
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });
    new CfnOutput(this, 'UsagePlanId', { value: this.api.usagePlan.usagePlanId });
    new CfnOutput(this, 'FunctionNames', {
      value: Fn.join(
        ',',
        [...Object.values(routes), authorizer].map((fn) => fn.function.functionName),
      ),
      description: 'The functions behind the API, comma-separated: what npm run prune-versions prunes',
    });
    new CfnOutput(this, 'RolloutApplication', {
      value: this.rollout.application.applicationName,
      description: "The CodeDeploy application of the functions' rollouts (aws deploy list-deployments)",
    });
    for (const [name, group] of Object.entries(this.rollout.deploymentGroups))
      new CfnOutput(this, `${constructId(name)}DeploymentGroup`, {
        value: group.deploymentGroupName,
        description: `The CodeDeploy deployment group of ${name}'s rollouts (aws deploy list-deployments)`,
      });
  }

  /**
   * What on-call looks at (lib/monitoring/): the stage's metrics, the probe, the SLOs' burn rates and
   * the alarms that page, the dashboard and the saved log queries.
   */
  private addMonitoring(settings: StageSettings, functions: Record<FunctionName, PetstoreFunction>) {
    const apiName = this.api.restApi.restApiName;
    const probe = new ProbeCanary(this, 'Probe', { settings, baseUrl: this.api.url });
    const metrics = stageMetrics({
      stage: settings.name,
      apiName,
      functions: mapFunctions(functions, (fn) => fn.function),
      initDurations: mapFunctions(functions, (fn, name) =>
        addInitDurationMetric(this, {
          name,
          logGroup: fn.function.logGroup,
          namespace: stageMetricsNamespace(apiName),
        }),
      ),
      accessLogMetrics: this.api.accessLogMetrics,
      table: this.table,
      probe: probe.canary,
    });
    const slos = new SloAlarms(this, 'Slos', { settings, metrics });
    const alarms = new StageAlarms(this, 'Alarms', { settings, metrics, burnRateAlarms: slos.alarms });
    const { dashboard } = new StageDashboard(this, 'Dashboard', {
      settings,
      metrics,
      firewall: this.firewall,
      slos,
      alarms: alarms.all,
    });
    addLogQueries(new Construct(this, 'LogQueries'), {
      settings,
      accessLogs: this.api.accessLogs,
      functionLogs: Object.values(functions).map((fn) => fn.function.logGroup),
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${dashboard.dashboardName}`,
      description:
        "The stage's CloudWatch dashboard: where on-call starts (docs/deployment.md#is-it-healthy)",
    });
    new CfnOutput(this, 'ProbeKeySecretArn', {
      value: probe.keySecret.secretArn,
      description: "Where the probe's API key is kept: npm run keys -- probe --stage stores it",
    });
    return alarms;
  }
}
