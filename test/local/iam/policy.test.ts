// The IAM evaluation of the local emulation: policy statements decided as AWS decides them, what IAM
// sees of each DynamoDB request, and a refusal the AWS SDK takes for DynamoDB's own.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { accessDeniedAnswer, authorizationsOf } from '#local/iam/dynamodb-authorization.ts';
import type { DynamoDbAuthorization } from '#local/iam/dynamodb-authorization.ts';
import { evaluatePolicy } from '#local/iam/policy.ts';
import type { AuthorizationRequest, PolicyStatement } from '#local/iam/policy.ts';
import { STATUS_INDEX, TABLE_KEY } from '#shared/store/table.ts';

const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/petstore-staging';
const INDEX_ARN = `${TABLE_ARN}/index/byStatus`;
const ROLE_ARN = 'arn:aws:sts::123456789012:assumed-role/petstore-staging-GetPet/GetPet';

/** The statements the synthesized template gives a function's role. */
const PROJECT_STATEMENTS: PolicyStatement[] = [
  {
    Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PET', 'IDEMPOTENCY#*'] } },
    Effect: 'Allow',
    Resource: TABLE_ARN,
  },
  {
    Action: 'dynamodb:UpdateItem',
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['COUNTER', 'IDEMPOTENCY#*'] } },
    Effect: 'Allow',
    Resource: TABLE_ARN,
  },
  { Action: 'dynamodb:Query', Effect: 'Allow', Resource: INDEX_ARN },
  { Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Effect: 'Allow', Resource: '*' },
];

const OPTIONS = {
  region: 'us-east-1',
  accountId: '123456789012',
  tables: {
    'petstore-staging': {
      partitionKey: TABLE_KEY.partitionKey,
      indexes: { [STATUS_INDEX.name]: { partitionKey: STATUS_INDEX.partitionKey } },
    },
  },
};

const request = (action: string, resource = TABLE_ARN, context = {}): AuthorizationRequest => ({
  action,
  resource,
  context,
});
const leading = (...keys: string[]) => ({ 'dynamodb:LeadingKeys': keys });
const ALLOWED = { allowed: true };
const NOT_ALLOWED = { allowed: false, reason: 'no identity-based policy allows' };
const DENIED = { allowed: false, reason: 'explicit deny' };

/** One Allow of GetItem on the table, under the condition given. */
const allowGetWhen = (Condition: PolicyStatement['Condition']): PolicyStatement[] => [
  { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: TABLE_ARN, Condition },
];
const getWith = (context: AuthorizationRequest['context']) => request('dynamodb:GetItem', TABLE_ARN, context);
/** A key of the table, as the JSON protocol carries it. */
const key = (pk: string) => ({ pk: { S: pk }, sk: { S: '0000000000000001' } });

describe("the project's statements", () => {
  it.each([
    ['dynamodb:GetItem', TABLE_ARN, leading('PET')],
    ['dynamodb:PutItem', TABLE_ARN, leading('IDEMPOTENCY#key-1')],
    ['dynamodb:PutItem', TABLE_ARN, leading('PET', 'IDEMPOTENCY#key-1')],
    ['dynamodb:UpdateItem', TABLE_ARN, leading('COUNTER')],
    ['dynamodb:Query', INDEX_ARN, leading('STATUS#available')],
    ['xray:PutTraceSegments', '*', {}],
  ])('allow %s on %s with %j', (action, resource, context) => {
    expect(evaluatePolicy(PROJECT_STATEMENTS, request(action, resource, context))).toEqual(ALLOWED);
  });

  it.each([
    ['dynamodb:GetItem', TABLE_ARN, leading('APIKEY')],
    ['dynamodb:PutItem', TABLE_ARN, leading('PET', 'APIKEY')],
    ['dynamodb:PutItem', TABLE_ARN, leading('IDEMPOTENCY')],
    ['dynamodb:PutItem', TABLE_ARN, leading('idempotency#key-1')],
    ['dynamodb:UpdateItem', TABLE_ARN, leading('PET')],
    ['dynamodb:DeleteItem', TABLE_ARN, leading('PET')],
    ['dynamodb:Query', TABLE_ARN, leading('PET')],
    ['dynamodb:Scan', TABLE_ARN, {}],
    ['dynamodb:GetItem', `${TABLE_ARN}-other`, leading('PET')],
  ])('refuse %s on %s with %j', (action, resource, context) => {
    expect(evaluatePolicy(PROJECT_STATEMENTS, request(action, resource, context))).toEqual(NOT_ALLOWED);
  });

  it('allow an empty IDEMPOTENCY# partition, the * matching nothing', () => {
    expect(evaluatePolicy(PROJECT_STATEMENTS, getWith(leading('IDEMPOTENCY#')))).toEqual(ALLOWED);
  });
});

describe('actions and resources', () => {
  const allow = (Action: string | string[], Resource: string | string[] = '*'): PolicyStatement[] => [
    { Effect: 'Allow', Action, Resource },
  ];

  it('match actions with wildcards, whatever their case', () => {
    expect(evaluatePolicy(allow('dynamodb:*'), request('dynamodb:GetItem'))).toEqual(ALLOWED);
    expect(evaluatePolicy(allow('*'), request('s3:GetObject'))).toEqual(ALLOWED);
    expect(evaluatePolicy(allow('DynamoDB:get*'), request('dynamodb:GetItem'))).toEqual(ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:?etItem'), request('dynamodb:GetItem'))).toEqual(ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:?etItem'), request('dynamodb:BatchGetItem'))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:Get*'), request('dynamodb:PutItem'))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:*'), request('s3:GetObject'))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:Get.tem'), request('dynamodb:GetItem'))).toEqual(NOT_ALLOWED);
  });

  it('match resources with wildcards, case-sensitively', () => {
    const get = (resource: string) => request('dynamodb:GetItem', resource);
    const tables = allow('dynamodb:GetItem', 'arn:aws:dynamodb:*:123456789012:table/petstore-*');
    expect(evaluatePolicy(tables, get(TABLE_ARN))).toEqual(ALLOWED);
    expect(evaluatePolicy(tables, get(INDEX_ARN))).toEqual(ALLOWED);
    expect(evaluatePolicy(tables, get(TABLE_ARN.replace('petstore', 'Petstore')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(tables, get(TABLE_ARN.replace('123456789012', '210987654321')))).toEqual(
      NOT_ALLOWED,
    );
    const oneLetter = allow('dynamodb:GetItem', `${TABLE_ARN.slice(0, -1)}?`);
    expect(evaluatePolicy(oneLetter, get(TABLE_ARN))).toEqual(ALLOWED);
    expect(evaluatePolicy(oneLetter, get(`${TABLE_ARN}s`))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(allow('dynamodb:GetItem', TABLE_ARN), get(INDEX_ARN))).toEqual(NOT_ALLOWED);
  });

  it('let a matching Deny win over any Allow', () => {
    const statements: PolicyStatement[] = [
      ...allow('dynamodb:*'),
      { Effect: 'Deny', Action: 'dynamodb:DeleteItem', Resource: TABLE_ARN },
    ];
    expect(evaluatePolicy(statements, request('dynamodb:DeleteItem'))).toEqual(DENIED);
    expect(evaluatePolicy(statements, request('dynamodb:DeleteItem', INDEX_ARN))).toEqual(ALLOWED);
    expect(evaluatePolicy(statements, request('dynamodb:GetItem'))).toEqual(ALLOWED);
  });

  it('invert NotAction and NotResource', () => {
    const statements: PolicyStatement[] = [
      { Effect: 'Allow', NotAction: ['dynamodb:Scan', 'dynamodb:Delete*'], Resource: TABLE_ARN },
      { Effect: 'Deny', Action: 'dynamodb:*', NotResource: [TABLE_ARN, INDEX_ARN] },
    ];
    expect(evaluatePolicy(statements, request('dynamodb:GetItem'))).toEqual(ALLOWED);
    expect(evaluatePolicy(statements, request('dynamodb:Scan'))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(statements, request('dynamodb:DeleteItem'))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(statements, request('dynamodb:GetItem', `${TABLE_ARN}-other`))).toEqual(DENIED);
    expect(evaluatePolicy(statements, request('dynamodb:Query', INDEX_ARN))).toEqual(NOT_ALLOWED);
  });

  it('apply no statement that has neither an action nor a resource element', () => {
    expect(evaluatePolicy([{ Effect: 'Allow', Resource: '*' }], request('dynamodb:GetItem'))).toEqual(
      NOT_ALLOWED,
    );
    expect(evaluatePolicy([{ Effect: 'Allow', Action: '*' }], request('dynamodb:GetItem'))).toEqual(
      NOT_ALLOWED,
    );
    expect(evaluatePolicy([], request('dynamodb:GetItem'))).toEqual(NOT_ALLOWED);
  });
});

describe('conditions', () => {
  const forAll = allowGetWhen({
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PET', 'IDEMPOTENCY#*'] },
  });
  const forAny = allowGetWhen({
    'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['PET', 'IDEMPOTENCY#*'] },
  });

  it('ForAllValues holds when every value matches one of the patterns', () => {
    expect(evaluatePolicy(forAll, getWith(leading('IDEMPOTENCY#a', 'PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(forAll, getWith(leading('IDEMPOTENCY#a', 'COUNTER')))).toEqual(NOT_ALLOWED);
  });

  it('ForAllValues holds when the key is absent or empty (as in AWS), ForAnyValue then does not', () => {
    expect(evaluatePolicy(forAll, getWith({}))).toEqual(ALLOWED);
    expect(evaluatePolicy(forAll, getWith(leading()))).toEqual(ALLOWED);
    expect(evaluatePolicy(forAny, getWith({}))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(forAny, getWith(leading()))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(forAny, getWith(leading('COUNTER', 'PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(forAny, getWith(leading('COUNTER')))).toEqual(NOT_ALLOWED);
  });

  it('without a qualifier, need every value to match and the key to be present', () => {
    const like = allowGetWhen({ StringLike: { 'dynamodb:LeadingKeys': ['PET', 'IDEMPOTENCY#*'] } });
    expect(evaluatePolicy(like, getWith(leading('PET', 'IDEMPOTENCY#a')))).toEqual(ALLOWED);
    expect(evaluatePolicy(like, getWith(leading('PET', 'COUNTER')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(like, getWith({}))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(like, getWith(leading()))).toEqual(NOT_ALLOWED);
  });

  it('IfExists holds when the key is absent, and tests it when present', () => {
    const ifExists = allowGetWhen({ StringEqualsIfExists: { 'dynamodb:LeadingKeys': 'PET' } });
    expect(evaluatePolicy(ifExists, getWith({}))).toEqual(ALLOWED);
    expect(evaluatePolicy(ifExists, getWith(leading('PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(ifExists, getWith(leading('COUNTER')))).toEqual(NOT_ALLOWED);
    const anyIfExists = allowGetWhen({ 'ForAnyValue:StringLikeIfExists': { 'dynamodb:LeadingKeys': 'P*' } });
    expect(evaluatePolicy(anyIfExists, getWith({}))).toEqual(ALLOWED);
    expect(evaluatePolicy(anyIfExists, getWith(leading('COUNTER')))).toEqual(NOT_ALLOWED);
  });

  it('negated operators match none of the values; absent, they hold (as in AWS)', () => {
    const notEquals = allowGetWhen({ StringNotEquals: { 'dynamodb:LeadingKeys': ['APIKEY', 'COUNTER'] } });
    expect(evaluatePolicy(notEquals, getWith(leading('PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(notEquals, getWith(leading('PET', 'APIKEY')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(notEquals, getWith({}))).toEqual(ALLOWED);
    const notLike = allowGetWhen({
      'ForAnyValue:StringNotLike': { 'dynamodb:LeadingKeys': 'IDEMPOTENCY#*' },
    });
    expect(evaluatePolicy(notLike, getWith(leading('IDEMPOTENCY#a', 'PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(notLike, getWith(leading('IDEMPOTENCY#a')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(notLike, getWith({}))).toEqual(NOT_ALLOWED);
  });

  it('compare exactly, or ignoring case for ...IgnoreCase, and find keys whatever their case', () => {
    const equals = allowGetWhen({ StringEquals: { 'dynamodb:leadingkeys': 'PET' } });
    expect(evaluatePolicy(equals, getWith(leading('PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(equals, getWith(leading('pet')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(equals, getWith(leading('PETS')))).toEqual(NOT_ALLOWED);
    const star = allowGetWhen({ StringEquals: { 'dynamodb:LeadingKeys': 'P*' } });
    expect(evaluatePolicy(star, getWith(leading('PET')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(star, getWith(leading('P*')))).toEqual(ALLOWED);
    const ignoringCase = allowGetWhen({ StringEqualsIgnoreCase: { 'dynamodb:LeadingKeys': 'PET' } });
    expect(evaluatePolicy(ignoringCase, getWith(leading('pEt')))).toEqual(ALLOWED);
  });

  it('need every operator and every key (AND), any value of a key (OR)', () => {
    const both = allowGetWhen({
      StringEquals: { 'dynamodb:LeadingKeys': ['PET', 'COUNTER'], 'aws:PrincipalTag/team': 'store' },
      StringNotLike: { 'dynamodb:Attributes': 'secret*' },
    });
    const context = { ...leading('COUNTER'), 'aws:PrincipalTag/team': ['store'] };
    expect(evaluatePolicy(both, getWith(context))).toEqual(ALLOWED);
    expect(evaluatePolicy(both, getWith({ ...context, 'aws:PrincipalTag/team': ['zoo'] }))).toEqual(
      NOT_ALLOWED,
    );
    expect(evaluatePolicy(both, getWith(leading('COUNTER')))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(both, getWith({ ...context, 'dynamodb:Attributes': ['secretKey'] }))).toEqual(
      NOT_ALLOWED,
    );
  });

  it('compare ARNs with wildcards, case-sensitively, ArnEquals as ArnLike; negated, absent holds', () => {
    const arn = 'arn:aws:iam::123456789012:role/petstore-staging-Role';
    const like = allowGetWhen({ ArnEquals: { 'aws:PrincipalArn': 'arn:aws:iam::*:role/petstore-*' } });
    expect(evaluatePolicy(like, getWith({ 'aws:PrincipalArn': [arn] }))).toEqual(ALLOWED);
    expect(evaluatePolicy(like, getWith({ 'aws:PrincipalArn': [arn.toUpperCase()] }))).toEqual(NOT_ALLOWED);
    expect(evaluatePolicy(like, getWith({}))).toEqual(NOT_ALLOWED);
    const deny: PolicyStatement = {
      Sid: 'OnlyOurRoles',
      Effect: 'Deny',
      Action: '*',
      Resource: '*',
      Condition: { ArnNotLike: { 'aws:PrincipalArn': arn } },
    };
    const both = [...allowGetWhen(undefined), deny];
    expect(evaluatePolicy(both, getWith({ 'aws:PrincipalArn': [arn] }))).toEqual(ALLOWED);
    expect(evaluatePolicy(both, getWith({}))).toEqual({ ...DENIED, deniedBy: ['OnlyOurRoles'] });
  });

  it('fail closed on an unknown operator: an Allow allows nothing, a Deny still denies', () => {
    const unknown = { NumericLessThan: { 'dynamodb:LeadingKeys': '5' } };
    const holding = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': 'PET' } };
    expect(evaluatePolicy(allowGetWhen(holding), getWith(leading('PET')))).toEqual(ALLOWED);
    expect(evaluatePolicy(allowGetWhen({ ...holding, ...unknown }), getWith(leading('PET')))).toEqual(
      NOT_ALLOWED,
    );
    expect(
      evaluatePolicy(allowGetWhen({ StringLikes: { 'dynamodb:LeadingKeys': '*' } }), getWith({})),
    ).toEqual(NOT_ALLOWED);
    const deny: PolicyStatement = { Effect: 'Deny', Action: '*', Resource: '*', Condition: unknown };
    expect(evaluatePolicy([...allowGetWhen(holding), deny], getWith(leading('PET')))).toEqual(DENIED);
  });
});

describe('what IAM sees of a DynamoDB request', () => {
  const tableWith = (action: string, ...keys: string[]): DynamoDbAuthorization => ({
    action,
    resource: TABLE_ARN,
    context: leading(...keys),
  });

  it.each(['GetItem', 'DeleteItem', 'UpdateItem'])('%s: the partition key of its Key', (operation) => {
    const body = { TableName: 'petstore-staging', Key: key('PET') };
    expect(authorizationsOf(operation, body, OPTIONS)).toEqual([tableWith(`dynamodb:${operation}`, 'PET')]);
  });

  it('PutItem: the partition key of its Item, a number in its decimal form', () => {
    const options = { ...OPTIONS, tables: { numbered: { partitionKey: 'id', indexes: {} } } };
    expect(authorizationsOf('PutItem', { TableName: 'petstore-staging', Item: key('PET') }, OPTIONS)).toEqual(
      [tableWith('dynamodb:PutItem', 'PET')],
    );
    expect(
      authorizationsOf('PutItem', { TableName: 'numbered', Item: { id: { N: '42' } } }, options),
    ).toEqual([
      {
        action: 'dynamodb:PutItem',
        resource: TABLE_ARN.replace('petstore-staging', 'numbered'),
        context: leading('42'),
      },
    ]);
  });

  it('Query: the value bound to the partition key, not the sort key condition', () => {
    const body = {
      TableName: 'petstore-staging',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :p)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': { S: 'IDEMPOTENCY#scope' }, ':p': { S: 'PET' } },
    };
    expect(authorizationsOf('Query', body, OPTIONS)).toEqual([
      tableWith('dynamodb:Query', 'IDEMPOTENCY#scope'),
    ]);
    const query = (KeyConditionExpression: string) =>
      authorizationsOf(
        'Query',
        { ...body, KeyConditionExpression, ExpressionAttributeNames: undefined },
        OPTIONS,
      );
    expect(query('sk = :p AND pk=:pk')).toEqual([tableWith('dynamodb:Query', 'IDEMPOTENCY#scope')]);
    expect(query('sk BETWEEN :p AND :p AND pk = :pk')).toEqual([
      tableWith('dynamodb:Query', 'IDEMPOTENCY#scope'),
    ]);
    expect(query('pk = :p AND sk >= :pk')).toEqual([tableWith('dynamodb:Query', 'PET')]);
  });

  it("Query on an index: the index's ARN and partition key", () => {
    const body = {
      TableName: 'petstore-staging',
      IndexName: 'byStatus',
      KeyConditionExpression: '#s = :s AND #id > :after',
      ExpressionAttributeNames: { '#s': STATUS_INDEX.partitionKey, '#id': STATUS_INDEX.sortKey },
      ExpressionAttributeValues: { ':s': { S: 'STATUS#available' }, ':after': { S: '0000000000000007' } },
    };
    expect(authorizationsOf('Query', body, OPTIONS)).toEqual([
      { action: 'dynamodb:Query', resource: INDEX_ARN, context: leading('STATUS#available') },
    ]);
  });

  it('Query in the legacy KeyConditions form', () => {
    const body = {
      TableName: 'petstore-staging',
      KeyConditions: { pk: { AttributeValueList: [{ S: 'PET' }], ComparisonOperator: 'EQ' } },
    };
    expect(authorizationsOf('Query', body, OPTIONS)).toEqual([tableWith('dynamodb:Query', 'PET')]);
  });

  it('Scan: no LeadingKeys at all', () => {
    expect(authorizationsOf('Scan', { TableName: 'petstore-staging' }, OPTIONS)).toEqual([
      { action: 'dynamodb:Scan', resource: TABLE_ARN, context: {} },
    ]);
    expect(
      authorizationsOf('Scan', { TableName: 'petstore-staging', IndexName: 'byStatus' }, OPTIONS),
    ).toEqual([{ action: 'dynamodb:Scan', resource: INDEX_ARN, context: {} }]);
  });

  it('BatchGetItem and BatchWriteItem: one check a table, with all its partition keys', () => {
    const other = { action: 'dynamodb:BatchGetItem', resource: `${TABLE_ARN}-archive`, context: {} };
    const read = {
      RequestItems: {
        'petstore-staging': { Keys: [key('PET'), key('COUNTER')] },
        'petstore-staging-archive': { Keys: [key('PET')] },
      },
    };
    expect(authorizationsOf('BatchGetItem', read, OPTIONS)).toEqual([
      tableWith('dynamodb:BatchGetItem', 'PET', 'COUNTER'),
      other,
    ]);
    const write = {
      RequestItems: {
        'petstore-staging': [
          { PutRequest: { Item: { ...key('PET'), name: { S: 'Rex' } } } },
          { DeleteRequest: { Key: key('APIKEY') } },
        ],
      },
    };
    expect(authorizationsOf('BatchWriteItem', write, OPTIONS)).toEqual([
      tableWith('dynamodb:BatchWriteItem', 'PET', 'APIKEY'),
    ]);
  });

  it('TransactWriteItems and TransactGetItems: one check an item, as its single-item action', () => {
    const part = (pk: string) => ({ TableName: 'petstore-staging', Key: key(pk) });
    const write = {
      TransactItems: [
        { Put: { TableName: 'petstore-staging', Item: key('PET') } },
        { Update: part('COUNTER') },
        { Delete: part('IDEMPOTENCY#a') },
        { ConditionCheck: part('APIKEY') },
      ],
    };
    expect(authorizationsOf('TransactWriteItems', write, OPTIONS)).toEqual([
      tableWith('dynamodb:PutItem', 'PET'),
      tableWith('dynamodb:UpdateItem', 'COUNTER'),
      tableWith('dynamodb:DeleteItem', 'IDEMPOTENCY#a'),
      tableWith('dynamodb:ConditionCheckItem', 'APIKEY'),
    ]);
    const read = { TransactItems: [{ Get: part('PET') }, { Get: part('COUNTER') }] };
    expect(authorizationsOf('TransactGetItems', read, OPTIONS)).toEqual([
      tableWith('dynamodb:GetItem', 'PET'),
      tableWith('dynamodb:GetItem', 'COUNTER'),
    ]);
  });

  it('operations not about items: the table named, or all of them; a table not described: no LeadingKeys', () => {
    expect(authorizationsOf('DescribeTable', { TableName: 'petstore-staging' }, OPTIONS)).toEqual([
      { action: 'dynamodb:DescribeTable', resource: TABLE_ARN, context: {} },
    ]);
    expect(authorizationsOf('ListTables', {}, OPTIONS)).toEqual([
      {
        action: 'dynamodb:ListTables',
        resource: 'arn:aws:dynamodb:us-east-1:123456789012:table/*',
        context: {},
      },
    ]);
    expect(authorizationsOf('GetItem', { TableName: 'elsewhere', Key: key('PET') }, OPTIONS)).toEqual([
      {
        action: 'dynamodb:GetItem',
        resource: TABLE_ARN.replace('petstore-staging', 'elsewhere'),
        context: {},
      },
    ]);
  });

  it("decided against the project's statements", () => {
    const decide = (operation: string, body: Record<string, unknown>) =>
      authorizationsOf(operation, body, OPTIONS).map((check) => evaluatePolicy(PROJECT_STATEMENTS, check));
    const counter = { Update: { TableName: 'petstore-staging', Key: key('COUNTER') } };
    const pet = { Put: { TableName: 'petstore-staging', Item: key('PET') } };
    expect(decide('TransactWriteItems', { TransactItems: [counter, pet] })).toEqual([ALLOWED, ALLOWED]);
    expect(
      decide('TransactWriteItems', {
        TransactItems: [{ Update: { TableName: 'petstore-staging', Key: key('PET') } }],
      }),
    ).toEqual([NOT_ALLOWED]);
    expect(
      decide('BatchWriteItem', {
        RequestItems: { 'petstore-staging': [{ PutRequest: { Item: key('PET') } }] },
      }),
    ).toEqual([NOT_ALLOWED]);
  });
});

describe('the refusal on the wire', () => {
  it("is DynamoDB's AccessDeniedException in AWS's words", () => {
    const denied: DynamoDbAuthorization = { action: 'dynamodb:Scan', resource: TABLE_ARN, context: {} };
    const answer = accessDeniedAnswer(ROLE_ARN, denied, 'no identity-based policy allows');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(answer.headers['x-amzn-RequestId']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(answer.body.toString())).toEqual({
      __type: 'com.amazon.coral.service#AccessDeniedException',
      Message: `User: ${ROLE_ARN} is not authorized to perform: dynamodb:Scan on resource: ${TABLE_ARN} because no identity-based policy allows the dynamodb:Scan action`,
    });
    const explicit = JSON.parse(accessDeniedAnswer(ROLE_ARN, denied, 'explicit deny').body.toString());
    expect(explicit.Message).toBe(
      `User: ${ROLE_ARN} is not authorized to perform: dynamodb:Scan on resource: ${TABLE_ARN} with an explicit deny in an identity-based policy`,
    );
    expect(accessDeniedAnswer(ROLE_ARN, denied, 'explicit deny').headers['x-amzn-RequestId']).not.toBe(
      answer.headers['x-amzn-RequestId'],
    );
  });

  describe('through the AWS SDK', () => {
    let server: Server;
    let client: DynamoDBClient;
    const received: string[] = [];

    // A DynamoDB that checks each request against the project's statements and answers those
    // allowed with an empty result.
    beforeAll(async () => {
      server = createServer(async (incoming, outgoing) => {
        const operation = String(incoming.headers['x-amz-target']).split('.')[1] ?? '';
        const body = JSON.parse(Buffer.concat(await incoming.toArray()).toString());
        received.push(operation);
        for (const check of authorizationsOf(operation, body, OPTIONS)) {
          const decision = evaluatePolicy(PROJECT_STATEMENTS, check);
          if (!decision.allowed) {
            const answer = accessDeniedAnswer(ROLE_ARN, check, decision.reason);
            outgoing.writeHead(answer.status, answer.headers).end(answer.body);
            return;
          }
        }
        outgoing.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      client = new DynamoDBClient({
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'dummy', secretAccessKey: 'dummy' },
        maxAttempts: 1,
      });
    });

    afterAll(async () => {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it('rejects with an AccessDeniedException, once', async () => {
      received.length = 0;
      await expect(client.send(new ScanCommand({ TableName: 'petstore-staging' }))).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: `User: ${ROLE_ARN} is not authorized to perform: dynamodb:Scan on resource: ${TABLE_ARN} because no identity-based policy allows the dynamodb:Scan action`,
        $metadata: { httpStatusCode: 400 },
      });
      expect(received).toEqual(['Scan']);
    });

    it('sees the partition keys of the requests the SDK sends', async () => {
      const get = (pk: string) => new GetItemCommand({ TableName: 'petstore-staging', Key: key(pk) });
      await expect(client.send(get('PET'))).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
      await expect(client.send(get('APIKEY'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
      const byStatus = new QueryCommand({
        TableName: 'petstore-staging',
        IndexName: STATUS_INDEX.name,
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': STATUS_INDEX.partitionKey },
        ExpressionAttributeValues: { ':s': { S: 'STATUS#sold' } },
      });
      await expect(client.send(byStatus)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    });
  });
});
