// The dependency graph CloudFormation builds from a template, on hand-made templates: every way a
// resource can name another, the places CloudFormation reads them from, and what is not a reference.
import { describe, expect, it } from '@jest/globals';
import type { CloudTemplate, TemplateResource } from '#local/cloud-assembly/template.ts';
import {
  circularDependencyProblem,
  dependencyCycles,
  resourceDependencies,
} from '#local/cloud-assembly/template-dependencies.ts';

const template = (resources: Record<string, Omit<TemplateResource, 'Type'>>): CloudTemplate => ({
  Resources: Object.fromEntries(
    Object.entries(resources).map(([id, resource]) => [id, { Type: 'AWS::Test::Thing', ...resource }]),
  ),
});

const dependenciesOf = (t: CloudTemplate, id: string) => [...(resourceDependencies(t).get(id) ?? [])].sort();

describe('the dependency graph of a template', () => {
  it('follows Ref, Fn::GetAtt in both forms, Fn::Sub in both forms, and DependsOn', () => {
    const t = template({
      A: {
        DependsOn: 'B',
        Properties: {
          Ref: { Ref: 'C' },
          List: [{ 'Fn::GetAtt': ['D', 'Arn'] }, { 'Fn::GetAtt': 'E.Arn' }],
          Sub: { 'Fn::Sub': 'arn:${AWS::Partition}:x:${F}:${G.Name}' },
          SubWithVariables: { 'Fn::Sub': ['${H}-${local}', { local: { Ref: 'I' } }] },
        },
      },
      B: { DependsOn: ['C'] },
      C: {},
      D: {},
      E: {},
      F: {},
      G: {},
      H: {},
      I: {},
    });
    expect(dependenciesOf(t, 'A')).toEqual(['B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    expect(dependenciesOf(t, 'B')).toEqual(['C']);
  });

  it('reads references in UpdatePolicy, CreationPolicy and Metadata too', () => {
    const t = template({
      Alias: {
        UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: 'Group' } } },
        CreationPolicy: { ResourceSignal: { Count: { 'Fn::GetAtt': ['Count', 'Value'] } } },
        Metadata: { Init: { 'Fn::Sub': '${Config}' } },
      },
      Group: {},
      Count: {},
      Config: {},
    });
    expect(dependenciesOf(t, 'Alias')).toEqual(['Config', 'Count', 'Group']);
  });

  it('counts neither parameters, pseudo parameters, literal ${!text}, Sub variables nor plain strings', () => {
    const t = template({
      A: {
        Properties: {
          Parameter: { Ref: 'Stage' },
          Pseudo: { Ref: 'AWS::Region' },
          Literal: { 'Fn::Sub': '${!B} and ${local}' },
          Variables: { 'Fn::Sub': ['${local}', { local: 'B' }] },
          Text: 'B',
          NotAnIntrinsic: { Ref: 'B', Other: 1 },
        },
      },
      B: {},
    });
    expect(dependenciesOf(t, 'A')).toEqual([]);
  });
});

describe('a circular dependency', () => {
  it('is found with every resource in it, however it is closed', () => {
    const t = template({
      Alarm: { Properties: { Dimensions: [{ Value: { Ref: 'Stage' } }] } },
      Group: { Properties: { Alarms: [{ Name: { Ref: 'Alarm' } }] } },
      Alias: { UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: 'Group' } } } },
      Method: { Properties: { Uri: { 'Fn::Sub': 'arn:${Alias}/invocations' } } },
      Stage: { DependsOn: 'Method' },
      Outside: { Properties: { Stage: { Ref: 'Stage' } } },
    });
    expect(dependencyCycles(t)).toEqual([['Alarm', 'Alias', 'Group', 'Method', 'Stage']]);
    expect(circularDependencyProblem(t)).toBe(
      'CloudFormation would reject this template: circular dependency between Alarm, Alias, Group, Method, Stage',
    );
  });

  it('includes a resource that names itself, and lists separate circles apart', () => {
    const t = template({
      Self: { Properties: { Me: { 'Fn::GetAtt': ['Self', 'Arn'] } } },
      A: { DependsOn: 'B' },
      B: { DependsOn: 'A' },
    });
    expect(circularDependencyProblem(t)).toBe(
      'CloudFormation would reject this template: circular dependency between Self; and between A, B',
    );
  });

  it('is not reported for a graph without one', () => {
    const t = template({ A: { DependsOn: ['B', 'C'] }, B: { DependsOn: 'C' }, C: {} });
    expect(dependencyCycles(t)).toEqual([]);
    expect(circularDependencyProblem(t)).toBeUndefined();
  });
});
