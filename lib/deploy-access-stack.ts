// What deploys may do in this account: CloudFormation's execution policy and the permissions boundary
// (lib/deploy-policies.ts), and the roles the release workflow deploys with, one per stage, which only
// that stage's GitHub environment may assume, for an hour, to assume the project's bootstrap roles.
// An administrator deploys it with their own credentials, before `cdk bootstrap` (docs/deployment.md).
import { CfnOutput, CfnParameter, Duration, Stack, StackSynthesizer, Validations } from 'aws-cdk-lib';
import type { DockerImageAssetLocation, FileAssetLocation, ISynthesisSession, StackProps } from 'aws-cdk-lib';
import {
  ManagedPolicy,
  OidcProviderNative,
  PolicyDocument,
  PolicyStatement,
  Role,
  WebIdentityPrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { IOidcProvider } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { StageName } from '#lib/stage-settings.ts';
import {
  EXECUTION_POLICY_NAME,
  executionPolicy,
  PERMISSIONS_BOUNDARY_NAME,
  permissionsBoundary,
} from '#lib/deploy-policies.ts';
import type { IamStatement } from '#lib/deploy-policies.ts';
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
  /** The project's bootstrap qualifier. */
  bootstrapQualifier: string;
};

/** Each stage's role and the output that gives its ARN, by the ids the workflow's setup names. */
const ROLE_IDS: Record<StageName, { role: string; output: string }> = {
  staging: { role: 'StagingRole', output: 'StagingDeployRoleArn' },
  production: { role: 'ProductionRole', output: 'ProductionDeployRoleArn' },
};

const NO_ASSETS = 'The deploy-access stack takes no assets: it is deployed before the toolkit exists';

/** No toolkit role and no asset: the CLI deploys the template inline with the credentials it has. */
class AdministratorCredentials extends StackSynthesizer {
  addFileAsset(): FileAssetLocation {
    throw new Error(NO_ASSETS);
  }
  addDockerImageAsset(): DockerImageAssetLocation {
    throw new Error(NO_ASSETS);
  }
  synthesize(session: ISynthesisSession) {
    this.synthesizeTemplate(session);
    this.emitArtifact(session);
  }
}

export class DeployAccessStack extends Stack {
  readonly roles: Partial<Record<StageName, Role>> = {};

  constructor(scope: Construct, id: string, props: DeployAccessStackProps) {
    super(scope, id, {
      description: 'Pet store API: what its deploys may do, and the roles GitHub Actions deploys with',
      // The administrator's own credentials, not the toolkit's: it exists before the toolkit does, and
      // the execution policy may not change the policies it holds.
      synthesizer: new AdministratorCredentials(),
      ...props,
    });
    this.addDeployPolicies(props);
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
    const qualifier = props.bootstrapQualifier;

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

  /** The boundary and the execution policy, by the fixed names `cdk bootstrap` and the stacks use. */
  private addDeployPolicies({ stageRegions, bootstrapQualifier }: DeployAccessStackProps) {
    const scope = {
      account: this.account,
      stages: Object.keys(stageRegions) as StageName[],
      qualifier: bootstrapQualifier,
    };
    const policy = (
      id: string,
      managedPolicyName: string,
      statements: IamStatement[],
      description: string,
    ) => {
      const created = new ManagedPolicy(this, id, {
        managedPolicyName,
        description,
        document: PolicyDocument.fromJson({ Version: '2012-10-17', Statement: statements }),
      });
      // Each wildcard is a name pattern of the project's resources, or a call that takes no resource:
      // lib/deploy-policies.ts says which beside each statement.
      const wildcards = statements.flatMap(({ Action = [], Resource }) => [
        ...Action.filter((action) => action.includes('*')).map((action) => `Action::${action}`),
        ...Resource.filter((resource) => resource.includes('*')).map(
          (resource) => `Resource::${asNagShowsIt(resource)}`,
        ),
      ]);
      Validations.of(created).acknowledge(
        ...[...new Set(wildcards)].map((finding) => ({
          id: `AwsSolutions-IAM5[${finding}]`,
          reason: "A name pattern of the project's own resources, or a call that takes no resource.",
        })),
      );
    };
    policy(
      'PermissionsBoundary',
      PERMISSIONS_BOUNDARY_NAME,
      permissionsBoundary(scope),
      'Pet store: the most any role of its stacks may do',
    );
    policy(
      'ExecutionPolicy',
      EXECUTION_POLICY_NAME,
      executionPolicy(scope),
      'Pet store: what CloudFormation may do in a deploy of its stages',
    );
  }
}
