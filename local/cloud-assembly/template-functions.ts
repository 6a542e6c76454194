// The Lambda side of a synthesized template, for the stage run: each function's asset directory,
// handler, environment (references resolved to local values, secrets' dynamic references to
// local secrets), timeout, memory and reserved concurrency; the policy statements of its role;
// and the tables' key schemas that IAM's dynamodb:LeadingKeys condition is read against.
import { resolve as resolvePath } from 'node:path';
import type { TableKeySchemas } from '#local/iam/dynamodb-authorization.ts';
import type { PolicyStatement } from '#local/iam/policy.ts';
import { referencedIds } from '#local/cloud-assembly/template.ts';
import type { TemplateReader } from '#local/cloud-assembly/template.ts';

/** Lambda's defaults when the template leaves them out. */
const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

export type TemplateFunction = {
  logicalId: string;
  taskRoot: string;
  handler: string;
  runtime: string;
  variables: Record<string, string>;
  timeoutSeconds: number;
  memoryMb: number;
  reservedConcurrency?: number;
  roleId: string;
  /** The secrets its variables name through dynamic references, by the id or ARN they use. */
  secretReferences: string[];
};

const DYNAMIC_SECRET = /\{\{resolve:secretsmanager:(.+?):SecretString:[^}]*\}\}/g;

/** `{{resolve:secretsmanager:<arn>:SecretString:::}}` replaced by the secret's local value. */
export const resolveSecrets = (value: string, secretValue: (reference: string) => string) =>
  value.replace(DYNAMIC_SECRET, (_match, reference: string) => secretValue(reference));

export function templateFunctions(reader: TemplateReader, assemblyDir: string): TemplateFunction[] {
  return reader.ofType('AWS::Lambda::Function').map(({ logicalId, Properties: fn, Metadata = {} }) => {
    const assetPath = Metadata['aws:asset:path'];
    if (typeof assetPath !== 'string')
      throw new Error(`${logicalId} has no asset path in the template's metadata: synthesize with assets`);
    const variables = reader.resolve(
      ((fn.Environment ?? {}) as { Variables?: unknown }).Variables ?? {},
    ) as Record<string, string>;
    const [roleId] = referencedIds(fn.Role);
    return {
      logicalId,
      taskRoot: resolvePath(assemblyDir, assetPath),
      handler: String(fn.Handler ?? 'index.handler'),
      runtime: String(fn.Runtime ?? ''),
      variables,
      timeoutSeconds: Number(fn.Timeout ?? DEFAULT_TIMEOUT_SECONDS),
      memoryMb: Number(fn.MemorySize ?? DEFAULT_MEMORY_MB),
      reservedConcurrency:
        fn.ReservedConcurrentExecutions === undefined ? undefined : Number(fn.ReservedConcurrentExecutions),
      roleId: roleId ?? '',
      secretReferences: Object.values(variables).flatMap((value) =>
        [...String(value).matchAll(DYNAMIC_SECRET)].map((match) => match[1] ?? ''),
      ),
    };
  });
}

/** Every statement the role holds: its inline policies and the AWS::IAM::Policy resources attached to it. */
export function roleStatements(reader: TemplateReader, roleId: string): PolicyStatement[] {
  const statementsOf = (document: unknown) =>
    ([] as PolicyStatement[]).concat(
      (reader.resolve(document) as { Statement?: PolicyStatement | PolicyStatement[] }).Statement ?? [],
    );
  const role = reader.resources[roleId]?.Properties ?? {};
  const inline = ((role.Policies ?? []) as { PolicyDocument: unknown }[]).flatMap((policy) =>
    statementsOf(policy.PolicyDocument),
  );
  const attached = reader
    .ofType('AWS::IAM::Policy')
    .filter(({ Properties }) => referencedIds(Properties.Roles).includes(roleId))
    .flatMap(({ Properties }) => statementsOf(Properties.PolicyDocument));
  return [...inline, ...attached];
}

type KeySchema = { AttributeName: string; KeyType: string }[];
const partitionKeyOf = (schema: unknown) =>
  (schema as KeySchema).find((key) => key.KeyType === 'HASH')?.AttributeName ?? '';

export function tableKeySchemas(reader: TemplateReader): TableKeySchemas {
  return Object.fromEntries(
    reader.ofType('AWS::DynamoDB::Table').map(({ logicalId, Properties: table }) => {
      const indexes = (
        (table.GlobalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: unknown }[]
      ).map((index) => [index.IndexName, { partitionKey: partitionKeyOf(index.KeySchema) }]);
      return [
        String(reader.resolve({ Ref: logicalId })),
        { partitionKey: partitionKeyOf(table.KeySchema), indexes: Object.fromEntries(indexes) },
      ];
    }),
  );
}
