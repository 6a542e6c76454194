// What CloudFormation calls, as the execution role, to create, update and delete each resource of a
// template, on the ARNs CloudFormation gives them (<stack>-<logical id>-<suffix>, the canary's fixed
// name, the stack-name tag of a secret or web ACL). The calls are the resource handlers' own lists
// for the operations the stacks use; a type not listed here fails the checks.
import { CANARY_FUNCTION_CALLS } from '#lib/deploy-policies.ts';
import { createTemplateReader } from '#local/cloud-assembly/template.ts';
import type { CloudTemplate, TemplateResource } from '#local/cloud-assembly/template.ts';
import type { AuthorizationRequest } from '#local/iam/policy.ts';

export const ACCOUNT = '123456789012';
/** A call, and where it comes from: the resource type that needs it. */
export type Call = AuthorizationRequest & { type: string };

const SUFFIX = 'A1B2C3D4E5F6';

/** How a template's intrinsic functions resolve once deployed, in a stack of this name and region. */
export function deployedStack(template: CloudTemplate, stackName: string, region: string) {
  const { Resources } = template;
  const physicalName = (logicalId: string) => {
    const { Type, Properties = {} } = Resources[logicalId] ?? { Type: 'missing' };
    const named = Properties.FunctionName ?? Properties.LogGroupName ?? Properties.Name;
    if (Type === 'AWS::Synthetics::Canary' || (named !== undefined && Type !== 'AWS::Lambda::Alias'))
      return String(resolve(named));
    if (Type === 'AWS::S3::Bucket') return `${stackName}-${logicalId.toLowerCase()}-${SUFFIX.toLowerCase()}`;
    if (Type === 'AWS::SecretsManager::Secret' || Type === 'AWS::WAFv2::WebACL')
      return `${logicalId}-${SUFFIX}`;
    return `${stackName}-${logicalId}-${SUFFIX}`;
  };
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;
  /** What Ref and Fn::GetAtt Arn give of each type. */
  function arnOf(logicalId: string): string {
    const { Type } = Resources[logicalId] ?? { Type: 'missing' };
    const name = physicalName(logicalId);
    const arns: Record<string, () => string> = {
      'AWS::IAM::Role': () => `arn:aws:iam::${ACCOUNT}:role/${name}`,
      'AWS::Lambda::Function': () => arn('lambda', `function:${name}`),
      'AWS::DynamoDB::Table': () => arn('dynamodb', `table/${name}`),
      'AWS::Logs::LogGroup': () => arn('logs', `log-group:${name}:*`),
      'AWS::S3::Bucket': () => `arn:aws:s3:::${name}`,
      'AWS::SNS::Topic': () => arn('sns', name),
      'AWS::SecretsManager::Secret': () => arn('secretsmanager', `secret:${name}-AbC123`),
      'AWS::KMS::Key': () => arn('kms', 'key/0b0e8f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b'),
      'AWS::CloudWatch::Alarm': () => arn('cloudwatch', `alarm:${name}`),
      'AWS::CloudWatch::CompositeAlarm': () => arn('cloudwatch', `alarm:${name}`),
      'AWS::WAFv2::WebACL': () => arn('wafv2', `regional/webacl/${name}/0b0e8f2a`),
      'AWS::Synthetics::Canary': () => arn('synthetics', `canary:${name}`),
      'AWS::Lambda::Version': () => `${functionArn(Resources[logicalId]?.Properties?.FunctionName)}:1`,
      'AWS::Lambda::Alias': () => `${functionArn(Resources[logicalId]?.Properties?.FunctionName)}:live`,
      'AWS::ApiGateway::RestApi': () => 'a1b2c3d4e5',
    };
    return (arns[Type] ?? (() => name))();
  }
  /** A function's ARN, from its name or ARN. */
  const functionArn = (nameOrArn: unknown) =>
    String(resolve(nameOrArn)).replace(/^(?!arn:)/, arn('lambda', 'function:'));
  // A Ref gives these types' names and the others' ARNs; of the attributes only an ARN is looked into.
  const { resolve } = createTemplateReader(
    template,
    (logicalId, { Type }, attribute) => {
      if (attribute !== undefined)
        return attribute === 'Arn' ? arnOf(logicalId) : `${logicalId}.${attribute}`;
      return /::(Role|Table|LogGroup|Bucket|Function|Canary|Application|DeploymentGroup)$/.test(Type)
        ? physicalName(logicalId)
        : arnOf(logicalId);
    },
    { 'AWS::AccountId': ACCOUNT, 'AWS::Region': region, 'AWS::StackName': stackName },
  );
  return { physicalName, arnOf, resolve, arn, functionArn };
}

type DeployedStack = ReturnType<typeof deployedStack>;

/** Each type's calls, given its logical id, the template and how it resolves. */
type CallsOf = (
  logicalId: string,
  resource: TemplateResource,
  stack: DeployedStack & { stackName: string },
) => Call[];

const call =
  (type: string, resource: string, context: Record<string, string[]> = {}) =>
  (action: string) => ({
    type,
    action,
    resource,
    context,
  });
const each = (type: string, resource: string, actions: string[], context?: Record<string, string[]>) =>
  actions.map(call(type, resource, context));

const API = 'arn:aws:apigateway:us-east-1::/restapis/a1b2c3d4e5';
const apiGateway = (type: string, path: string) =>
  each(type, `arn:aws:apigateway:us-east-1::${path}`, [
    'apigateway:POST',
    'apigateway:GET',
    'apigateway:PATCH',
    'apigateway:PUT',
    'apigateway:DELETE',
  ]);

/** Every template checks the project toolkit's version, an SSM parameter CloudFormation reads. */
export const bootstrapVersionCall = (qualifier: string): Call =>
  call(
    'the bootstrap version',
    `arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/cdk-bootstrap/${qualifier}/version`,
  )('ssm:GetParameters');

/** The boundary's condition key on a role CloudFormation makes or changes. */
export const withBoundary = (boundaryArn: string) => ({ 'iam:PermissionsBoundary': [boundaryArn] });

export function cloudFormationCalls(boundaryArn: string, qualifier: string): Record<string, CallsOf> {
  const passRole = (type: string, role: unknown, stack: DeployedStack) =>
    call(
      type,
      String(stack.resolve(role)).replace(/^(?!arn:)/, `arn:aws:iam::${ACCOUNT}:role/`),
    )('iam:PassRole');
  // Code assets are read from the project toolkit's bucket with the caller's rights.
  const asset = (type: string) =>
    call(type, `arn:aws:s3:::cdk-${qualifier}-assets-${ACCOUNT}-us-east-1/0123abcd.zip`)('s3:GetObject');
  const tagged = (stackName: string) => ({ 'aws:ResourceTag/aws:cloudformation:stack-name': [stackName] });
  return {
    'AWS::CDK::Metadata': () => [],
    'AWS::ApiGateway::RestApi': () => [
      ...apiGateway('AWS::ApiGateway::RestApi', '/restapis'),
      ...apiGateway('AWS::ApiGateway::RestApi', '/restapis/a1b2c3d4e5'),
    ],
    'AWS::ApiGateway::Resource': () =>
      apiGateway('AWS::ApiGateway::Resource', '/restapis/a1b2c3d4e5/resources/r1'),
    'AWS::ApiGateway::Method': () =>
      apiGateway('AWS::ApiGateway::Method', '/restapis/a1b2c3d4e5/resources/r1/methods/GET'),
    'AWS::ApiGateway::Authorizer': () =>
      apiGateway('AWS::ApiGateway::Authorizer', '/restapis/a1b2c3d4e5/authorizers/z1'),
    'AWS::ApiGateway::Deployment': () =>
      apiGateway('AWS::ApiGateway::Deployment', '/restapis/a1b2c3d4e5/deployments/d1'),
    'AWS::ApiGateway::GatewayResponse': () =>
      apiGateway('AWS::ApiGateway::GatewayResponse', '/restapis/a1b2c3d4e5/gatewayresponses/DEFAULT_4XX'),
    'AWS::ApiGateway::Stage': () => [
      ...apiGateway('AWS::ApiGateway::Stage', '/restapis/a1b2c3d4e5/stages/v1'),
      ...apiGateway('AWS::ApiGateway::Stage', `/tags/${encodeURIComponent(`${API}/stages/v1`)}`),
    ],
    'AWS::ApiGateway::Account': (_id, { Properties = {} }, stack) => [
      ...apiGateway('AWS::ApiGateway::Account', '/account'),
      passRole('AWS::ApiGateway::Account', Properties.CloudWatchRoleArn, stack),
    ],
    'AWS::ApiGateway::UsagePlan': () => [
      ...apiGateway('AWS::ApiGateway::UsagePlan', '/usageplans'),
      ...apiGateway('AWS::ApiGateway::UsagePlan', '/usageplans/u1'),
    ],
    'AWS::ApiGateway::DomainName': () => [
      ...apiGateway('AWS::ApiGateway::DomainName', '/domainnames'),
      ...apiGateway('AWS::ApiGateway::DomainName', '/domainnames/api.example.com'),
      call(
        'AWS::ApiGateway::DomainName',
        `arn:aws:iam::${ACCOUNT}:role/aws-service-role/ops.apigateway.amazonaws.com/AWSServiceRoleForAPIGateway`,
        {
          'iam:AWSServiceName': ['ops.apigateway.amazonaws.com'],
        },
      )('iam:CreateServiceLinkedRole'),
      call(
        'AWS::ApiGateway::DomainName',
        `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/0b0e8f2a`,
      )('acm:DescribeCertificate'),
    ],
    'AWS::ApiGateway::BasePathMapping': () =>
      apiGateway('AWS::ApiGateway::BasePathMapping', '/domainnames/api.example.com/basepathmappings/v1'),
    'AWS::CloudWatch::Alarm': (id, _r, { arnOf }) =>
      each('AWS::CloudWatch::Alarm', arnOf(id), [
        'cloudwatch:PutMetricAlarm',
        'cloudwatch:DeleteAlarms',
        'cloudwatch:TagResource',
      ]).concat(call('AWS::CloudWatch::Alarm', '*')('cloudwatch:DescribeAlarms')),
    'AWS::CloudWatch::CompositeAlarm': (id, _r, { arnOf }) =>
      each('AWS::CloudWatch::CompositeAlarm', arnOf(id), [
        'cloudwatch:PutCompositeAlarm',
        'cloudwatch:DeleteAlarms',
      ]).concat(call('AWS::CloudWatch::CompositeAlarm', '*')('cloudwatch:DescribeAlarms')),
    'AWS::CloudWatch::Dashboard': (id, _r, { physicalName }) =>
      each('AWS::CloudWatch::Dashboard', `arn:aws:cloudwatch::${ACCOUNT}:dashboard/${physicalName(id)}`, [
        'cloudwatch:PutDashboard',
        'cloudwatch:GetDashboard',
        'cloudwatch:DeleteDashboards',
      ]),
    'AWS::CodeDeploy::Application': (id, _r, { arn, physicalName }) =>
      each('AWS::CodeDeploy::Application', arn('codedeploy', `application:${physicalName(id)}`), [
        'codedeploy:CreateApplication',
        'codedeploy:GetApplication',
        'codedeploy:DeleteApplication',
        'codedeploy:TagResource',
      ]),
    'AWS::CodeDeploy::DeploymentGroup': (id, { Properties = {} }, stack) => [
      ...each(
        'AWS::CodeDeploy::DeploymentGroup',
        stack.arn(
          'codedeploy',
          `deploymentgroup:${String(stack.resolve(Properties.ApplicationName))}/${stack.physicalName(id)}`,
        ),
        [
          'codedeploy:CreateDeploymentGroup',
          'codedeploy:GetDeploymentGroup',
          'codedeploy:UpdateDeploymentGroup',
          'codedeploy:DeleteDeploymentGroup',
        ],
      ),
      call(
        'AWS::CodeDeploy::DeploymentGroup',
        stack.arn('codedeploy', `deploymentconfig:${String(Properties.DeploymentConfigName)}`),
      )('codedeploy:GetDeploymentConfig'),
      passRole('AWS::CodeDeploy::DeploymentGroup', Properties.ServiceRoleArn, stack),
    ],
    'AWS::DynamoDB::Table': (id, _r, { arnOf }) =>
      each('AWS::DynamoDB::Table', arnOf(id), [
        'dynamodb:CreateTable',
        'dynamodb:DescribeTable',
        'dynamodb:UpdateTable',
        'dynamodb:DeleteTable',
        'dynamodb:TagResource',
        'dynamodb:UpdateContinuousBackups',
        'dynamodb:DescribeContinuousBackups',
        'dynamodb:UpdateTimeToLive',
      ]),
    'AWS::IAM::Role': (id, { Properties = {} }, { arnOf, resolve }) => [
      ...each(
        'AWS::IAM::Role',
        arnOf(id),
        ['iam:CreateRole', 'iam:PutRolePolicy', 'iam:PutRolePermissionsBoundary'],
        withBoundary(boundaryArn),
      ),
      ...each('AWS::IAM::Role', arnOf(id), [
        'iam:GetRole',
        'iam:DeleteRole',
        'iam:TagRole',
        'iam:UpdateAssumeRolePolicy',
        'iam:DeleteRolePolicy',
        'iam:DetachRolePolicy',
      ]),
      ...((Properties.ManagedPolicyArns ?? []) as unknown[]).map((policy) =>
        call('AWS::IAM::Role', arnOf(id), {
          ...withBoundary(boundaryArn),
          'iam:PolicyARN': [String(resolve(policy))],
        })('iam:AttachRolePolicy'),
      ),
    ],
    'AWS::IAM::Policy': (_id, { Properties = {} }, { resolve }) =>
      ((Properties.Roles ?? []) as unknown[]).flatMap((role) =>
        each(
          'AWS::IAM::Policy',
          `arn:aws:iam::${ACCOUNT}:role/${String(resolve(role))}`,
          ['iam:PutRolePolicy', 'iam:GetRolePolicy', 'iam:DeleteRolePolicy'],
          withBoundary(boundaryArn),
        ),
      ),
    'AWS::KMS::Key': () => [call('AWS::KMS::Key', '*')('kms:CreateKey')],
    'AWS::Lambda::Function': (id, { Properties = {} }, stack) => [
      ...each('AWS::Lambda::Function', stack.arnOf(id), [
        'lambda:CreateFunction',
        'lambda:GetFunction',
        'lambda:UpdateFunctionCode',
        'lambda:UpdateFunctionConfiguration',
        'lambda:DeleteFunction',
        'lambda:TagResource',
      ]),
      passRole('AWS::Lambda::Function', Properties.Role, stack),
      asset('AWS::Lambda::Function'),
    ],
    'AWS::Lambda::Version': (id, _r, { arnOf }) =>
      each('AWS::Lambda::Version', arnOf(id).replace(/:1$/, ''), [
        'lambda:PublishVersion',
        'lambda:GetFunctionConfiguration',
        'lambda:DeleteFunction',
      ]),
    'AWS::Lambda::Alias': (id, { UpdatePolicy }, stack) => {
      const rollout = UpdatePolicy?.CodeDeployLambdaAliasUpdate as Record<string, unknown> | undefined;
      const group = rollout
        ? stack.arn(
            'codedeploy',
            `deploymentgroup:${String(stack.resolve(rollout.ApplicationName))}/${String(stack.resolve(rollout.DeploymentGroupName))}`,
          )
        : undefined;
      return [
        ...each('AWS::Lambda::Alias', stack.arnOf(id), [
          'lambda:CreateAlias',
          'lambda:UpdateAlias',
          'lambda:GetAlias',
          'lambda:DeleteAlias',
        ]),
        ...(group
          ? each('AWS::Lambda::Alias', group, [
              'codedeploy:CreateDeployment',
              'codedeploy:GetDeployment',
              'codedeploy:StopDeployment',
            ])
          : []),
      ];
    },
    'AWS::Lambda::Permission': (_id, { Properties = {} }, { functionArn }) =>
      each('AWS::Lambda::Permission', functionArn(Properties.FunctionName), [
        'lambda:AddPermission',
        'lambda:RemovePermission',
      ]),
    'AWS::Logs::LogGroup': (id, _r, { arn, physicalName }) =>
      each('AWS::Logs::LogGroup', arn('logs', `log-group:${physicalName(id)}`), [
        'logs:CreateLogGroup',
        'logs:PutRetentionPolicy',
        'logs:DeleteLogGroup',
        'logs:TagResource',
      ]).concat(call('AWS::Logs::LogGroup', '*')('logs:DescribeLogGroups')),
    'AWS::Logs::MetricFilter': (_id, { Properties = {} }, { arn, resolve }) =>
      each('AWS::Logs::MetricFilter', arn('logs', `log-group:${String(resolve(Properties.LogGroupName))}`), [
        'logs:PutMetricFilter',
        'logs:DeleteMetricFilter',
      ]),
    'AWS::Logs::QueryDefinition': () =>
      each('AWS::Logs::QueryDefinition', '*', [
        'logs:PutQueryDefinition',
        'logs:DeleteQueryDefinition',
        'logs:DescribeQueryDefinitions',
      ]),
    'AWS::S3::Bucket': (id, _r, { arnOf }) =>
      each('AWS::S3::Bucket', arnOf(id), [
        's3:CreateBucket',
        's3:PutEncryptionConfiguration',
        's3:PutLifecycleConfiguration',
        's3:PutBucketPublicAccessBlock',
        's3:PutBucketTagging',
        's3:DeleteBucket',
      ]),
    'AWS::S3::BucketPolicy': (_id, { Properties = {} }, { resolve }) =>
      each('AWS::S3::BucketPolicy', `arn:aws:s3:::${String(resolve(Properties.Bucket))}`, [
        's3:PutBucketPolicy',
        's3:DeleteBucketPolicy',
      ]),
    'AWS::SNS::Topic': (id, _r, { arnOf }) =>
      each('AWS::SNS::Topic', arnOf(id), [
        'sns:CreateTopic',
        'sns:SetTopicAttributes',
        'sns:GetTopicAttributes',
        'sns:DeleteTopic',
        'sns:TagResource',
      ]),
    'AWS::SNS::TopicPolicy': (_id, { Properties = {} }, { resolve }) =>
      ((resolve(Properties.Topics) ?? []) as string[]).flatMap((topic) =>
        each('AWS::SNS::TopicPolicy', topic, ['sns:SetTopicAttributes']),
      ),
    // Made before it carries its stack's tag, then reached through it; a dynamic reference reads it.
    'AWS::SecretsManager::Secret': (id, _r, { arnOf, stackName }) => [
      ...each('AWS::SecretsManager::Secret', arnOf(id), [
        'secretsmanager:CreateSecret',
        'secretsmanager:TagResource',
      ]),
      call('AWS::SecretsManager::Secret', '*')('secretsmanager:GetRandomPassword'),
      ...each(
        'AWS::SecretsManager::Secret',
        arnOf(id),
        [
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:UpdateSecret',
          'secretsmanager:DeleteSecret',
        ],
        tagged(stackName),
      ),
    ],
    'AWS::SecretsManager::ResourcePolicy': (_id, { Properties = {} }, { resolve, stackName }) =>
      each(
        'AWS::SecretsManager::ResourcePolicy',
        String(resolve(Properties.SecretId)),
        [
          'secretsmanager:PutResourcePolicy',
          'secretsmanager:DeleteResourcePolicy',
          'secretsmanager:GetResourcePolicy',
        ],
        tagged(stackName),
      ),
    // Synthetics makes the canary's function and layer with the caller's rights, from its code asset.
    'AWS::Synthetics::Canary': (id, { Properties = {} }, stack) => {
      const suffix = `${stack.physicalName(id)}-0b0e8f2a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`;
      return [
        ...each('AWS::Synthetics::Canary', stack.arnOf(id), [
          'synthetics:CreateCanary',
          'synthetics:UpdateCanary',
          'synthetics:DeleteCanary',
          'synthetics:GetCanary',
          'synthetics:StartCanary',
          'synthetics:StopCanary',
          'synthetics:TagResource',
        ]),
        // Each on the function or the layer it makes, as its name says.
        ...CANARY_FUNCTION_CALLS.map((action) =>
          call(
            'AWS::Synthetics::Canary',
            stack.arn('lambda', `${/Layer/.test(action) ? 'layer' : 'function'}:cwsyn-${suffix}`),
          )(action),
        ),
        call(
          'AWS::Synthetics::Canary',
          'arn:aws:lambda:us-east-1:378653112637:layer:Synthetics:55',
        )('lambda:GetLayerVersion'),
        passRole('AWS::Synthetics::Canary', Properties.ExecutionRoleArn, stack),
        asset('AWS::Synthetics::Canary'),
        call(
          'AWS::Synthetics::Canary',
          `arn:aws:s3:::cdk-${qualifier}-assets-${ACCOUNT}-us-east-1`,
        )('s3:GetBucketLocation'),
        ...each('AWS::Synthetics::Canary', '*', [
          'synthetics:DescribeCanaries',
          'iam:ListRoles',
          's3:ListAllMyBuckets',
          'ec2:DescribeVpcs',
          'ec2:DescribeSubnets',
          'ec2:DescribeSecurityGroups',
        ]),
      ];
    },
    'AWS::WAFv2::WebACL': (id, _r, { arnOf, arn, stackName }) => [
      ...each('AWS::WAFv2::WebACL', arnOf(id), ['wafv2:CreateWebACL', 'wafv2:TagResource']),
      call(
        'AWS::WAFv2::WebACL',
        arn('wafv2', 'regional/managedruleset/AWS/AWSManagedRulesCommonRuleSet'),
      )('wafv2:CreateWebACL'),
      call(
        'AWS::WAFv2::WebACL',
        arn('wafv2', 'regional/managedruleset/AWS/AWSManagedRulesCommonRuleSet'),
      )('wafv2:UpdateWebACL'),
      ...each(
        'AWS::WAFv2::WebACL',
        arnOf(id),
        [
          'wafv2:GetWebACL',
          'wafv2:UpdateWebACL',
          'wafv2:DeleteWebACL',
          'wafv2:TagResource',
          'wafv2:ListTagsForResource',
        ],
        tagged(stackName),
      ),
    ],
    'AWS::WAFv2::WebACLAssociation': (_id, { Properties = {} }, { resolve, stackName }) => [
      ...each(
        'AWS::WAFv2::WebACLAssociation',
        String(resolve(Properties.WebACLArn)),
        ['wafv2:AssociateWebACL', 'wafv2:DisassociateWebACL', 'wafv2:GetWebACLForResource'],
        tagged(stackName),
      ),
      call('AWS::WAFv2::WebACLAssociation', `${API}/stages/v1`)('apigateway:SetWebACL'),
    ],
    // A custom resource is a function CloudFormation invokes.
    'Custom::AWS': (_id, { Properties = {} }, { resolve }) => [
      call('Custom::AWS', String(resolve(Properties.ServiceToken)))('lambda:InvokeFunction'),
    ],
    'Custom::S3AutoDeleteObjects': (_id, { Properties = {} }, { resolve }) => [
      call('Custom::S3AutoDeleteObjects', String(resolve(Properties.ServiceToken)))('lambda:InvokeFunction'),
    ],
  };
}
