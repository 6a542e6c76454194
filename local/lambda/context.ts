// The Lambda context a function gets, for running it outside Lambda.
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/timeouts.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '#local/iam/account.ts';

export function lambdaContext(requestId: string = randomUUID()): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000;
  return {
    awsRequestId: requestId,
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'petstore-local',
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:petstore-local`,
    memoryLimitInMB: '256',
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
