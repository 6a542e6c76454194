// An HTTP proxy in front of the test DynamoDB that a test can take down (connections refused,
// requests in flight cut) or make throttle, then bring back on the same address. The data
// behind it is untouched, as when a real DynamoDB endpoint becomes unreachable for a while.
import { startDynamoDbProxy } from '#local/dynamodb/proxy.ts';
import type { ProxiedAnswer } from '#local/dynamodb/proxy.ts';

export type Mode = 'up' | 'throttling';

/** DynamoDB's answer to a request over the table's throughput. */
export const THROTTLED: ProxiedAnswer = {
  status: 400,
  headers: { 'Content-Type': 'application/x-amz-json-1.0' },
  body: Buffer.from(
    JSON.stringify({
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    }),
  ),
};

export async function startFaultyDynamoDb(target: string) {
  let mode: Mode = 'up';
  const proxy = await startDynamoDbProxy(target, {
    answer: () => (mode === 'throttling' ? THROTTLED : undefined),
  });
  return {
    ...proxy,
    setMode: (next: Mode) => (mode = next),
  };
}
