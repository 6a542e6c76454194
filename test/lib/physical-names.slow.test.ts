// Physical names: a resource with a fixed name cannot be replaced by an update (the new one would
// need the name the old one still holds), and a retained one makes re-creating its stack fail. So
// CloudFormation names everything but what something outside the stack needs by name, or what is
// only unique within its parent; the tools find the rest through the stack's outputs.
import { describe, expect, it } from '@jest/globals';
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';
import { synthesized } from '#test/lib/synthesize.ts';

/** The properties that hold a resource's name, where its type has one. */
const NAME_PROPERTIES = [
  'Name',
  'TableName',
  'AlarmName',
  'ApplicationName',
  'DeploymentGroupName',
  'RoleName',
  'FunctionName',
  'LogGroupName',
  'TopicName',
  'AliasName',
  'StageName',
  'UsagePlanName',
  'PolicyName',
  'DashboardName',
];

/** The fixed names kept, and why each is fine. */
const KEPT = [
  // Its name is the ApiName dimension of its CloudWatch metrics, which the alarms name literally;
  // API names need not be unique.
  'AWS::ApiGateway::RestApi Name',
  // The contract's base path, v1, unique within its API.
  'AWS::ApiGateway::Stage StageName',
  // Unique within its API, function or role only.
  'AWS::ApiGateway::Authorizer Name',
  'AWS::Lambda::Alias Name',
  'AWS::IAM::Policy PolicyName',
  // Usage plan names need not be unique.
  'AWS::ApiGateway::UsagePlan UsagePlanName',
  // What the runbook sends on-call to: petstore-<stage>. No property change replaces them.
  'AWS::CloudWatch::Dashboard DashboardName',
  'AWS::Synthetics::Canary Name',
  // A saved query's name is only its label in the console's list; names need not be unique.
  'AWS::Logs::QueryDefinition Name',
];

/** "<type> <property>" for each literal name in the template. */
const fixedNames = ({ Resources }: CloudTemplate) =>
  [
    ...new Set(
      Object.values(Resources).flatMap(({ Type, Properties = {} }) =>
        NAME_PROPERTIES.filter((key) => typeof Properties[key] === 'string').map((key) => `${Type} ${key}`),
      ),
    ),
  ].sort();

describe('fixed physical names', () => {
  it.each([synthesized.staging, synthesized.production])(
    '$name: only those needed by name, or unique within their parent',
    (stage) => {
      const names = fixedNames(stage.template.toJSON() as CloudTemplate);
      expect(names.filter((name) => !KEPT.includes(name))).toEqual([]);
      // The table, CodeDeploy application and groups, web ACL, alarms and roles among the rest.
      expect(names).not.toContain('AWS::DynamoDB::Table TableName');
    },
  );

  it('the deploy role stack: none but its policy name, unique within its role', () => {
    expect(fixedNames(synthesized.deployAccess.template.toJSON() as CloudTemplate)).toEqual([
      'AWS::IAM::Policy PolicyName',
    ]);
  });
});
