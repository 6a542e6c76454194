// The role the release workflow (.github/workflows/deploy.yml) deploys with: GitHub's OpenID Connect
// provider and one role that GitHub Actions may assume only from this repository's main branch and its
// staging and production environments, for an hour, and that may only assume the account's CDK
// bootstrap roles. Deployed once, by hand, by an administrator (docs/deployment.md), apart from the stages.
import { CfnOutput, CfnParameter, DefaultStackSynthesizer, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, PolicyStatement, Role, WebIdentityPrincipal } from 'aws-cdk-lib/aws-iam';
import type { IOidcProvider } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

const GITHUB_OIDC_ISSUER = 'token.actions.githubusercontent.com';
/** The GitHub environments the workflow's deploy jobs run in. */
const DEPLOY_ENVIRONMENTS = ['staging', 'production'];
/** The CDK bootstrap roles, which hold the rights `cdk deploy` needs. */
const BOOTSTRAP_ROLES = ['deploy', 'file-publishing', 'image-publishing', 'lookup'];

export type DeployAccessStackProps = StackProps & {
  /** The account's GitHub provider, when it has one already (an account has at most one per URL). */
  existingOidcProviderArn?: string;
  /** The qualifier `cdk bootstrap` was run with. */
  bootstrapQualifier?: string;
};

export class DeployAccessStack extends Stack {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: DeployAccessStackProps = {}) {
    super(scope, id, { description: 'Pet store API: the role GitHub Actions deploys with', ...props });
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

    // `sub` is `repo:<owner/name>:ref:refs/heads/main` for a job without an environment, and
    // `repo:<owner/name>:environment:<name>` for one in an environment: each exactly, no wildcard.
    const subjects = [
      `repo:${repository}:ref:refs/heads/main`,
      ...DEPLOY_ENVIRONMENTS.map((environment) => `repo:${repository}:environment:${environment}`),
    ];
    // No role name: the workflow takes the role's ARN from the output, whatever CloudFormation named it.
    this.role = new Role(this, 'Role', {
      description: 'GitHub Actions of the pet store repository: may only assume the CDK bootstrap roles',
      maxSessionDuration: Duration.hours(1),
      assumedBy: new WebIdentityPrincipal(provider.oidcProviderArn, {
        StringEquals: {
          [`${GITHUB_OIDC_ISSUER}:aud`]: 'sts.amazonaws.com',
          [`${GITHUB_OIDC_ISSUER}:sub`]: subjects,
        },
      }),
    });
    const bootstrapRoles = `cdk-${props.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER}-*`;
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['sts:AssumeRole'],
        resources: [`arn:${this.partition}:iam::${this.account}:role/${bootstrapRoles}`],
        conditions: { StringEquals: { 'iam:ResourceTag/aws-cdk:bootstrap-role': BOOTSTRAP_ROLES } },
      }),
    );
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:role/${bootstrapRoles}]`,
      reason:
        "The bootstrap roles' names end in the account and each region bootstrapped; the condition on their aws-cdk:bootstrap-role tag limits the wildcard to those roles.",
    });

    new CfnOutput(this, 'DeployRoleArn', {
      value: this.role.roleArn,
      description: 'The repository variable AWS_DEPLOY_ROLE_ARN',
    });
  }
}
