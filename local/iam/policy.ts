// Decides one request against the statements of an identity-based policy the way IAM does, so that
// the local emulation refuses what the deployed role would be refused: a matching Deny wins,
// otherwise some matching Allow is needed, otherwise the request is implicitly denied. Only what the
// project's policies need is modelled: actions, resources, string and ARN conditions, no policy variables.

export type PolicyStatement = {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
};

export type AuthorizationRequest = {
  action: string;
  resource: string;
  /** Condition keys, e.g. { 'dynamodb:LeadingKeys': ['PET'] }; a key absent is not present in the request. */
  context: Record<string, string[]>;
};

/** A denial names the Sids of the statements that denied it explicitly, when they have any. */
export type PolicyDecision =
  | { allowed: true }
  | { allowed: false; reason: 'explicit deny'; deniedBy?: string[] }
  | { allowed: false; reason: 'no identity-based policy allows' };

type Context = AuthorizationRequest['context'];
type SetQualifier = 'ForAllValues:' | 'ForAnyValue:' | undefined;
type Operator = { set: SetQualifier; test: StringTest; ifExists: boolean };
/** A string operator: its test of a policy value against a request value, and whether it is negated. */
type StringTest = { matches: (policyValue: string, requestValue: string) => boolean; negated: boolean };

const escapeRegExp = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

/**
 * IAM's wildcards: `*` any run of characters, `?` one character. A `*` runs across an ARN's colons,
 * as IAM lets a `*` that ends a segment of a resource ARN do.
 */
function wildcardMatches(pattern: string, value: string, ignoreCase = false) {
  const source = pattern
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

const equal = (policy: string, request: string) => policy === request;
const equalIgnoringCase = (policy: string, request: string) => policy.toLowerCase() === request.toLowerCase();
const like = (policy: string, request: string) => wildcardMatches(policy, request);

const STRING_TESTS: Record<string, StringTest> = {
  StringEquals: { matches: equal, negated: false },
  StringNotEquals: { matches: equal, negated: true },
  StringEqualsIgnoreCase: { matches: equalIgnoringCase, negated: false },
  StringNotEqualsIgnoreCase: { matches: equalIgnoringCase, negated: true },
  StringLike: { matches: like, negated: false },
  StringNotLike: { matches: like, negated: true },
  // ARNs compare with wildcards, case-sensitively, under either name.
  ArnEquals: { matches: like, negated: false },
  ArnLike: { matches: like, negated: false },
  ArnNotEquals: { matches: like, negated: true },
  ArnNotLike: { matches: like, negated: true },
};

function parseOperator(name: string): Operator | undefined {
  const [, set, base = '', ifExists] = /^(ForAllValues:|ForAnyValue:)?(\w+?)(IfExists)?$/.exec(name) ?? [];
  const test = STRING_TESTS[base];
  return test && { set: set as SetQualifier, test, ifExists: ifExists !== undefined };
}

/** Condition key names are case-insensitive in IAM. */
function requestValues(context: Context, key: string) {
  const name = Object.keys(context).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  return name === undefined ? undefined : context[name];
}

function keyHolds({ set, test, ifExists }: Operator, policyValues: string[], values: string[] = []) {
  // A request value satisfies a negated operator when it matches none of the policy's values (NOR).
  const satisfies = (value: string) =>
    policyValues.some((policy) => test.matches(policy, value)) !== test.negated;
  // IAM's well-known trap: ForAllValues holds when the key is absent or empty, there being no value to fail.
  if (set === 'ForAllValues:') return values.every(satisfies);
  // An empty key is taken as absent. Absent, a negated operator holds (AWS: "the values do not match"),
  // ForAnyValue does not, nor does any other operator unless it is an ...IfExists one.
  if (values.length === 0) return ifExists || (set === undefined && test.negated);
  if (set === 'ForAnyValue:') return values.some(satisfies);
  // Without a qualifier, every value of a multivalued key must satisfy the operator.
  return values.every(satisfies);
}

/** Whether every operator's every key holds; undefined when an operator is unknown. */
function conditionHolds(condition: PolicyStatement['Condition'] = {}, context: Context) {
  let holds = true;
  for (const [name, keys] of Object.entries(condition)) {
    const operator = parseOperator(name);
    if (!operator) return undefined;
    holds &&= Object.entries(keys).every(([key, policyValues]) =>
      keyHolds(operator, [policyValues].flat(), requestValues(context, key)),
    );
  }
  return holds;
}

/** An element or its Not form, e.g. Action or NotAction; a statement with neither applies to nothing. */
type Patterns = string | string[] | undefined;
function elementMatches(patterns: Patterns, notPatterns: Patterns, value: string, ignoreCase: boolean) {
  const matches = (pattern: string) => wildcardMatches(pattern, value, ignoreCase);
  if (patterns !== undefined) return [patterns].flat().some(matches);
  return notPatterns !== undefined && ![notPatterns].flat().some(matches);
}

function applies(statement: PolicyStatement, { action, resource, context }: AuthorizationRequest) {
  // Actions are case-insensitive, resources are not.
  if (!elementMatches(statement.Action, statement.NotAction, action, true)) return false;
  if (!elementMatches(statement.Resource, statement.NotResource, resource, false)) return false;
  // IAM refuses to store a policy with an operator it does not know. Here such a statement fails
  // closed: as an Allow it allows nothing, as a Deny it still denies.
  return conditionHolds(statement.Condition, context) ?? statement.Effect === 'Deny';
}

export function evaluatePolicy(statements: PolicyStatement[], request: AuthorizationRequest): PolicyDecision {
  const applying = statements.filter((statement) => applies(statement, request));
  const denials = applying.filter(({ Effect }) => Effect === 'Deny');
  if (denials.length > 0) {
    const deniedBy = denials.flatMap(({ Sid }) => (Sid === undefined ? [] : [Sid]));
    return { allowed: false, reason: 'explicit deny', ...(deniedBy.length > 0 && { deniedBy }) };
  }
  if (applying.length > 0) return { allowed: true };
  return { allowed: false, reason: 'no identity-based policy allows' };
}
