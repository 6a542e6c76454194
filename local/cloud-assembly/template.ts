// Reads a synthesized CloudFormation template as a deployment would see it: its resources by type, and
// property values with the intrinsic functions the stack uses (Ref, Fn::GetAtt, Fn::Join, Fn::Sub,
// Fn::Select, Fn::Split) resolved. `localValue` says what a Ref or an attribute means, `pseudoParameters`
// where the stack stands if not here; anything else is a name or an ARN in a fixed local account and region.
import { readFileSync } from 'node:fs';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '#local/iam/account.ts';

export type TemplateResource = {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DependsOn?: string | string[];
  UpdatePolicy?: Record<string, unknown>;
  CreationPolicy?: Record<string, unknown>;
};
export type CloudTemplate = { Resources: Record<string, TemplateResource> };

const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::Region': LOCAL_REGION,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'local',
  'AWS::NoValue': '',
};

/** `Ref` is undefined for Ref, else the attribute's name. */
export type LocalValue = (
  logicalId: string,
  resource: TemplateResource,
  attribute?: string,
) => string | undefined;

/** AWS::DynamoDB::Table -> dynamodb, table */
function arnParts(type: string) {
  const [, service = 'unknown', kind = 'resource'] = type.split('::');
  return { service: service.toLowerCase(), kind: kind.toLowerCase() };
}

const defaultValue = (logicalId: string, { Type }: TemplateResource, attribute?: string) => {
  if (attribute === undefined) return logicalId;
  const { service, kind } = arnParts(Type);
  return `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${kind}/${logicalId}`;
};

export const readTemplate = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as CloudTemplate;

export function createTemplateReader(
  template: CloudTemplate,
  localValue: LocalValue = () => undefined,
  pseudoParameters: Record<string, string> = {},
) {
  const resources = template.Resources;
  const pseudoParameter = { ...PSEUDO_PARAMETERS, ...pseudoParameters };

  function reference(logicalId: string, attribute?: string): string {
    const pseudo = attribute === undefined ? pseudoParameter[logicalId] : undefined;
    if (pseudo !== undefined) return pseudo;
    const resource = resources[logicalId];
    if (!resource) throw new Error(`The template has no resource ${logicalId}`);
    return localValue(logicalId, resource, attribute) ?? defaultValue(logicalId, resource, attribute);
  }

  function substitute(text: string, variables: Record<string, unknown>): string {
    return text.replace(/\$\{([^}!]+)\}/g, (_match, name: string) => {
      if (name in variables) return String(resolve(variables[name]));
      const [logicalId = '', attribute] = name.split('.');
      return reference(logicalId, attribute);
    });
  }

  /** The value with every intrinsic function replaced by what it stands for here. */
  function resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value);
    const [name, argument] = entries[0] ?? [];
    if (entries.length !== 1 || !(name === 'Ref' || name?.startsWith('Fn::'))) {
      return Object.fromEntries(entries.map(([key, inner]) => [key, resolve(inner)]));
    }
    const args = resolve(argument) as never;
    switch (name) {
      case 'Ref':
        return reference(args);
      case 'Fn::GetAtt': {
        const [logicalId, attribute] =
          typeof args === 'string' ? (args as string).split('.') : (args as string[]);
        return reference(logicalId ?? '', attribute ?? '');
      }
      case 'Fn::Join': {
        const [separator, parts] = args as [string, unknown[]];
        return parts.join(separator);
      }
      case 'Fn::Sub': {
        const [text, variables = {}] =
          typeof args === 'string' ? [args, {}] : (args as [string, Record<string, unknown>]);
        return substitute(text, variables);
      }
      case 'Fn::Select': {
        const [index, list] = args as [number | string, unknown[]];
        return list[Number(index)];
      }
      case 'Fn::Split': {
        const [separator, text] = args as [string, string];
        return text.split(separator);
      }
      default:
        throw new Error(`The stage run cannot resolve ${name}`);
    }
  }

  return {
    resources,
    /** The resources of one type, with their logical ids, in template order. */
    ofType: (type: string) =>
      Object.entries(resources)
        .filter(([, resource]) => resource.Type === type)
        .map(([logicalId, resource]) => ({ logicalId, ...resource, Properties: resource.Properties ?? {} })),
    resolve,
  };
}

export type TemplateReader = ReturnType<typeof createTemplateReader>;

/** The logical id a raw value points at through Ref or Fn::GetAtt, wherever it sits inside it. */
export function referencedIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.Ref === 'string') return [record.Ref];
  const getAtt = record['Fn::GetAtt'];
  if (getAtt !== undefined) {
    const [logicalId] = typeof getAtt === 'string' ? getAtt.split('.') : (getAtt as string[]);
    return logicalId ? [logicalId] : [];
  }
  return Object.values(record).flatMap(referencedIds);
}
