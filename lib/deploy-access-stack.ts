// The roles the release workflow (.github/workflows/deploy.yml) deploys with: GitHub's OpenID Connect
// provider and a role for each stage deployed from this account, which only that stage's GitHub
// environment may assume, for an hour, and which may only assume the CDK bootstrap roles of the stage's
// region. Deployed once per account, by hand, by an administrator (docs/deployment.md).
import { CfnOutput, CfnParameter, DefaultStackSynthesizer, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, PolicyStatement, Role, WebIdentityPrincipal } from 'aws-cdk-lib/aws-iam';
import type { IOidcProvider } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { StageName } from '#lib/stage-settings.ts';
import { asNagShowsIt } from '#lib/nag-findings.ts';

const GITHUB_OIDC_ISSUER = 'token.actions.githubusercontent.com';
/** The CDK bootstrap roles, which hold the rights `cdk deploy` needs. */
const BOOTSTRAP_ROLES = ['deploy', 'file-publishing', 'image-publishing', 'lookup'];

export type DeployAccessStackProps = StackProps & {
  /**
   * The stages deployed from this account, each with its region: its role may reach the bootstrap
   * roles of that region only. A stage in an account of its own gets its role there, not here.
   */
  stageRegions: Partial<Record<StageName, string>>;
  /** The account's GitHub provider, when it has one already (an account has at most one per URL). */
  existingOidcProviderArn?: string;
  /** The qualifier `cdk bootstrap` was run with. */
  bootstrapQualifier?: string;
};

/** Each stage's role and the output that gives its ARN, by the ids the workflow's setup names. */
const ROLE_IDS: Record<StageName, { role: string; output: string }> = {
  staging: { role: 'StagingRole', output: 'StagingDeployRoleArn' },
  production: { role: 'ProductionRole', output: 'ProductionDeployRoleArn' },
};

export class DeployAccessStack extends Stack {
  readonly roles: Partial<Record<StageName, Role>> = {};

  constructor(scope: Construct, id: string, props: DeployAccessStackProps) {
    super(scope, id, { description: 'Pet store API: the roles GitHub Actions deploys with', ...props });
    // A parameter, not a context value: the stack synthesizes without it, and CloudFormation
    // refuses a value that is not owner/name before anything is created.
    const repository = new CfnParameter(this, 'GitHubRepository', {
      type: 'String',
      description: 'The repository allowed to deploy, as owner/name',
      allowedPattern: '^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$',
      constraintDescription: 'must be a GitHub repository as owner/name',
    }).valueAsString;

    const provider: IOidcProvider = props.existingOidcProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHub', props.existingOidcProviderArn)
      : new OidcProviderNative(this, 'GitHub', {
          url: `https://${GITHUB_OIDC_ISSUER}`,
          clientIds: ['sts.amazonaws.com'],
        });
    const qualifier = props.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;

    for (const [stage, region] of Object.entries(props.stageRegions) as [StageName, string][]) {
      // GitHub puts `environment:<name>` in `sub` only for a job that names that environment; any
      // other job of the repository (a test job, a branch, a pull request) gets another subject.
      const role = new Role(this, ROLE_IDS[stage].role, {
        description: `GitHub Actions, environment ${stage} of the pet store repository: may only assume the CDK bootstrap roles`,
        maxSessionDuration: Duration.hours(1),
        assumedBy: new WebIdentityPrincipal(provider.oidcProviderArn, {
          StringEquals: {
            [`${GITHUB_OIDC_ISSUER}:aud`]: 'sts.amazonaws.com',
            [`${GITHUB_OIDC_ISSUER}:sub`]: `repo:${repository}:environment:${stage}`,
          },
        }),
      });
      // Bootstrap roles are named cdk-<qualifier>-<kind>-<account>-<region>.
      const bootstrapRoles = `cdk-${qualifier}-*-${this.account}-${region}`;
      const bootstrapRolesArn = `arn:${this.partition}:iam::${this.account}:role/${bootstrapRoles}`;
      role.addToPolicy(
        new PolicyStatement({
          actions: ['sts:AssumeRole'],
          resources: [bootstrapRolesArn],
          conditions: { StringEquals: { 'iam:ResourceTag/aws-cdk:bootstrap-role': BOOTSTRAP_ROLES } },
        }),
      );
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${asNagShowsIt(bootstrapRolesArn)}]`,
        reason:
          "The bootstrap roles' names differ only in their kind; the condition on their aws-cdk:bootstrap-role tag limits the wildcard to those roles.",
      });
      // No role name: the workflow takes the role's ARN from the output, whatever CloudFormation named it.
      new CfnOutput(this, ROLE_IDS[stage].output, {
        value: role.roleArn,
        description: `The variable AWS_DEPLOY_ROLE_ARN of the GitHub environment ${stage}`,
      });
      this.roles[stage] = role;
    }
  }
}
