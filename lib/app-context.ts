// What an operator tells the CDK app in cdk.json's context or with `-c <key>=<value>`: each stage's
// region, account and custom domain, and for the deploy role the account's existing GitHub provider
// and the bootstrap qualifier. A value that cannot be right stops the synthesis with one line: a
// ContextError, whose message is printed alone.
import { Token } from 'aws-cdk-lib';
import type { App, Environment } from 'aws-cdk-lib';
import type { StageName, StageSettings } from '#lib/stage-settings.ts';

export class ContextError extends Error {
  override name = 'ContextError';
}

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]+$/;
const OIDC_PROVIDER_ARN =
  /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;

const contextString = (app: App, key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined ? undefined : String(value);
};

const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/**
 * The region of a stage: `<stage>:region` in cdk.json's context, required. It is the one place a
 * stage's region is set (the CDK commands read it through this app, AWS CLI commands through
 * `npm run stage-region`), so that no command acts in the region of whichever profile is in use.
 */
export function stageRegion(context: (key: string) => unknown, stage: StageName): string {
  const key = `${stage}:region`;
  const value: unknown = context(key);
  if (value === undefined)
    throw new ContextError(
      `${key} is not set: give the stage's region in cdk.json's context, for example "${key}": "eu-west-1".`,
    );
  if (typeof value !== 'string' || !REGION.test(value))
    throw new ContextError(`${key} must be an AWS region like eu-west-1, not ${JSON.stringify(value)}.`);
  return value;
}

/**
 * Account and region: the region of `stageRegion`; the account of context `<stage>:account`, else
 * the CLI's default (CDK_DEFAULT_ACCOUNT, from your credentials), else none: a stack for any
 * account, which is what lets `cdk synth` run offline.
 */
export function stageEnvironment(app: App, stage: StageName): Environment {
  return {
    account: contextString(app, `${stage}:account`) ?? process.env.CDK_DEFAULT_ACCOUNT,
    region: stageRegion((key) => app.node.tryGetContext(key), stage),
  };
}

/**
 * `<stage>:domainName` with `<stage>:certificateArn` (an ACM certificate for that name, in the
 * stage's region: a regional endpoint takes no other), or neither.
 */
export function customDomain(app: App, stage: StageName, region?: string): StageSettings['customDomain'] {
  const domainName = contextString(app, `${stage}:domainName`);
  const certificateArn = contextString(app, `${stage}:certificateArn`);
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined)
    throw new ContextError(
      `${stage}: give both ${stage}:domainName and ${stage}:certificateArn, or neither.`,
    );
  if (!DOMAIN_NAME.test(domainName))
    throw new ContextError(
      `${stage}:domainName must be a domain name like api.example.com, not "${domainName}".`,
    );
  const certificateRegion = CERTIFICATE_ARN.exec(certificateArn)?.[1];
  if (certificateRegion === undefined)
    throw new ContextError(
      `${stage}:certificateArn must be an ACM certificate ARN, not "${certificateArn}".`,
    );
  if (region !== undefined && !Token.isUnresolved(region) && region !== certificateRegion)
    throw new ContextError(
      `${stage}:certificateArn is in ${certificateRegion}; a regional domain needs a certificate in the stage's region, ${region}.`,
    );
  return { domainName: domainName.toLowerCase(), certificateArn };
}

/** CDK's bootstrap qualifier, which `cdk bootstrap` reads from cdk.json too: at most 10 letters or digits. */
const BOOTSTRAP_QUALIFIER = /^[a-z0-9]{1,10}$/;

/**
 * The project's bootstrap qualifier (CDK's own context key, set in cdk.json): the project deploys with a
 * toolkit of its own, so that its execution policy and boundary bind no other CDK app of the account.
 */
export function bootstrapQualifier(app: App): string {
  const key = '@aws-cdk/core:bootstrapQualifier';
  const qualifier = contextString(app, key);
  if (qualifier === undefined || !BOOTSTRAP_QUALIFIER.test(qualifier))
    throw new ContextError(
      `${key} must be the project's bootstrap qualifier, at most 10 lowercase letters or digits, not "${qualifier ?? ''}".`,
    );
  return qualifier;
}

/** `githubOidcProviderArn`: the account's GitHub provider, for an account that has one already. */
export function existingOidcProviderArn(app: App): string | undefined {
  const arn = contextString(app, 'githubOidcProviderArn');
  if (arn !== undefined && !OIDC_PROVIDER_ARN.test(arn))
    throw new ContextError(
      `githubOidcProviderArn must be the ARN of the token.actions.githubusercontent.com provider, not "${arn}".`,
    );
  return arn;
}
