// Every AWS CLI command the Markdown gives, held to its API as the AWS SDK's service model states it
// (the SDK's own schema of each operation's input, required members first): each required member is
// given, and each option is a member of the input or one of the CLI's global options. The model
// cannot state a rule between members; the API references' rules that the docs meet are listed.
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { markdownFiles } from '#test/support/markdown-links.ts';
import { REPO_ROOT, readRepoFile } from '#test/support/repository.ts';
import { commands, isAwsCall, steps } from '#test/docs/shell-commands.ts';

/** Each AWS CLI service the docs use, and the AWS SDK client that carries its model. */
const CLIENTS: Record<string, string> = {
  apigateway: '@aws-sdk/client-api-gateway',
  cloudformation: '@aws-sdk/client-cloudformation',
  cloudwatch: '@aws-sdk/client-cloudwatch',
  deploy: '@aws-sdk/client-codedeploy',
  dynamodb: '@aws-sdk/client-dynamodb',
  iam: '@aws-sdk/client-iam',
  kms: '@aws-sdk/client-kms',
  lambda: '@aws-sdk/client-lambda',
  logs: '@aws-sdk/client-cloudwatch-logs',
  secretsmanager: '@aws-sdk/client-secrets-manager',
  sns: '@aws-sdk/client-sns',
  sts: '@aws-sdk/client-sts',
};

/**
 * Operations of services whose AWS SDK client npm has no current release of: their input as the API
 * reference states it, required members first. CloudWatch Synthetics' client stopped at 3.669, whose
 * models carry no schema to read.
 */
const FROM_API_REFERENCE: Record<string, { required: string[]; optional: string[] }> = {
  // https://docs.aws.amazon.com/AmazonSynthetics/latest/APIReference/API_GetCanaryRuns.html
  'synthetics get-canary-runs': {
    required: ['name'],
    optional: ['next-token', 'max-results', 'dry-run-id', 'run-type'],
  },
};

/** The CLI's waiters the docs use: `aws <service> wait <waiter>` polls an operation with its input. */
const WAITERS: Record<string, string> = { 'dynamodb table-exists': 'describe-table' };

/** The CLI's global options the docs use. */
const GLOBAL_OPTIONS = new Set(['region', 'query', 'output']);

/** Options the AWS CLI renames from their member (awscli/customizations/argrename.py). */
const RENAMED: Record<string, Record<string, string>> = {
  'sns subscribe': { 'notification-endpoint': 'Endpoint' },
};

/** Rules between members that the API reference states and the model cannot. */
const GIVEN_TOGETHER: Record<string, string[][]> = {
  // ListDeployments: "If applicationName is specified, then deploymentGroupName must be specified."
  'deploy list-deployments': [['application-name', 'deployment-group-name']],
};

/** A schema reference of the AWS SDK: the schema, or a function returning it (static schemas). */
type SchemaRef = unknown;
const resolve = (ref: SchemaRef): unknown => (typeof ref === 'function' ? (ref as () => unknown)() : ref);
/** A simple schema with traits is [schema, traits]; the boolean schema is 2. */
const isBoolean = (ref: SchemaRef) => {
  const schema = resolve(ref);
  return (Array.isArray(schema) ? schema[0] : schema) === 2;
};

/** The member as the CLI spells it: FunctionName and functionName are function-name. */
const cliName = (member: string) =>
  member
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

type Operation = { required: string[]; options: Map<string, SchemaRef> };

const require = createRequire(import.meta.url);

/** The input of `aws <service> <command>`, from the operation's schema in the service's client. */
function operation(service: string, command: string): Operation {
  const stated = FROM_API_REFERENCE[`${service} ${command}`];
  if (stated)
    return {
      required: stated.required,
      options: new Map([...stated.required, ...stated.optional].map((option) => [option, undefined])),
    };
  const client = require(CLIENTS[service] ?? `no client for aws ${service}`) as Record<string, unknown>;
  const wanted = command.replaceAll('-', '').toLowerCase();
  const [, schema] = Object.entries(client).find(
    ([name, value]) =>
      name.endsWith('$') && name.slice(0, -1).toLowerCase() === wanted && (value as unknown[])[0] === 9,
  ) ?? [undefined, undefined];
  if (!schema) throw new Error(`aws ${service} ${command}: no such operation in ${CLIENTS[service]}`);
  const input = resolve((schema as SchemaRef[])[4]) as [
    number,
    string,
    string,
    unknown,
    string[],
    SchemaRef[],
    number?,
  ];
  const [, , , , members, memberSchemas, requiredCount = 0] = input;
  const renamed = Object.entries(RENAMED[`${service} ${command}`] ?? {});
  const spelled = (member: string) => renamed.find(([, of]) => of === member)?.[0] ?? cliName(member);
  return {
    required: members.slice(0, requiredCount).map(spelled),
    options: new Map(members.map((member, index) => [spelled(member), memberSchemas[index]])),
  };
}

/** The options a command gives, `--no-x` of a boolean as `x`. */
function optionsGiven(call: string, { options }: Operation): string[] {
  return [...call.matchAll(/\s--([a-z0-9-]+)/g)].map(([, name = '']) => {
    const negated = name.replace(/^no-/, '');
    return name !== negated && isBoolean(options.get(negated)) ? negated : name;
  });
}

/** `service command` of a call; a waiter's is the operation it polls. */
function operationName(call: string) {
  const [, service = '', command = '', waiter = ''] = call.split(/\s+/);
  if (command !== 'wait') return `${service} ${command}`;
  const polled = WAITERS[`${service} ${waiter}`];
  if (!polled) throw new Error(`${call}: no waiter ${waiter} known for aws ${service}`);
  return `${service} ${polled}`;
}

const calls = markdownFiles(REPO_ROOT).flatMap((file) =>
  commands(readRepoFile(file))
    .flatMap(({ text }) => steps(text))
    .filter(isAwsCall)
    .map((call) => ({ file, call, name: operationName(call) })),
);

describe('every AWS CLI command in the docs', () => {
  it('is found: the runbook and the reference give many', () => {
    expect(calls.length).toBeGreaterThan(20);
  });

  it.each(calls)('$file: $call', ({ call, name }) => {
    const [service = '', command = ''] = name.split(' ');
    const input = operation(service, command);
    const given = optionsGiven(call, input);
    expect({ call, missing: input.required.filter((option) => !given.includes(option)) }).toEqual({
      call,
      missing: [],
    });
    const unknown = given.filter((option) => !input.options.has(option) && !GLOBAL_OPTIONS.has(option));
    expect({ call, unknown }).toEqual({ call, unknown: [] });
    for (const together of GIVEN_TOGETHER[name] ?? []) {
      const present = together.filter((option) => given.includes(option));
      expect({ call, present }).toEqual({ call, present: present.length > 0 ? together : [] });
    }
  });
});

describe('the check itself', () => {
  it('reads required members from the model, and refuses what the API would', () => {
    expect(operation('lambda', 'update-alias').required).toEqual(['function-name', 'name']);
    expect(operation('sns', 'subscribe').required).toEqual(['topic-arn', 'protocol']);
    expect(operation('sns', 'subscribe').options.has('notification-endpoint')).toBe(true);
    expect(operation('iam', 'create-policy-version').required).toEqual(['policy-arn', 'policy-document']);
    const updateTable = operation('dynamodb', 'update-table');
    expect(optionsGiven('aws dynamodb update-table --no-deletion-protection-enabled', updateTable)).toEqual([
      'deletion-protection-enabled',
    ]);
    expect(() => operation('lambda', 'update-aliases')).toThrow(/no such operation/);
    expect(operationName('aws dynamodb wait table-exists --table-name t')).toBe('dynamodb describe-table');
    expect(() => operationName('aws dynamodb wait table-gone --table-name t')).toThrow(/no waiter/);
  });
});
