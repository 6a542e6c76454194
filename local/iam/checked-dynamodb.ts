// The stage run's DynamoDB endpoint: a proxy in front of the local DynamoDB that decides every call as
// IAM would for the function making it. Each function signs with an access key naming its role; each
// authorization AWS makes (per item or table) is decided against that role's policy statements, and a
// refusal is answered with DynamoDB's AccessDeniedException without reaching the table.
import { accessDeniedAnswer, authorizationsOf } from '#local/iam/dynamodb-authorization.ts';
import type { TableKeySchemas } from '#local/iam/dynamodb-authorization.ts';
import { startDynamoDbProxy } from '#local/dynamodb/proxy.ts';
import type { ProxiedAnswer, ProxiedRequest } from '#local/dynamodb/proxy.ts';
import { evaluatePolicy } from '#local/iam/policy.ts';
import type { PolicyStatement } from '#local/iam/policy.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '#local/iam/account.ts';

export type DynamoDbCaller = { principalArn: string; statements: PolicyStatement[] };

export type IamCheckedDynamoDbOptions = {
  /** Who signs with each access key id. */
  callers: Record<string, DynamoDbCaller>;
  tables: TableKeySchemas;
};

/** SigV4: `Credential=<access key id>/<date>/<region>/dynamodb/aws4_request`. */
const accessKeyIdOf = (request: ProxiedRequest) =>
  /Credential=([^/,\s]+)\//.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';

const unknownCaller = (): ProxiedAnswer => ({
  status: 400,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: Buffer.from(
    JSON.stringify({
      __type: 'com.amazon.coral.service#UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    }),
  ),
});

export function startIamCheckedDynamoDb(target: string, { callers, tables }: IamCheckedDynamoDbOptions) {
  function refusal(request: ProxiedRequest): ProxiedAnswer | undefined {
    const caller = callers[accessKeyIdOf(request)];
    if (!caller) return unknownCaller();
    const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
    for (const authorization of authorizationsOf(request.operation, body, {
      region: LOCAL_REGION,
      accountId: LOCAL_ACCOUNT,
      tables,
    })) {
      const decision = evaluatePolicy(caller.statements, authorization);
      if (!decision.allowed) return accessDeniedAnswer(caller.principalArn, authorization, decision.reason);
    }
    return undefined;
  }
  return startDynamoDbProxy(target, { answer: refusal });
}
