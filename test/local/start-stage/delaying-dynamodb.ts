// An HTTP proxy in front of a DynamoDB endpoint that a test can make slow on demand: a request it picks
// is held before it is forwarded (DynamoDB answers late), or forwarded at once and its answer held (the
// write is done, but the caller does not know yet), so that a function times out or is caught mid-call
// when the test chooses. The data behind it is the real DynamoDB's.
import { setTimeout as sleep } from 'node:timers/promises';
import { startDynamoDbProxy } from '#local/dynamodb/proxy.ts';
import type { ProxiedRequest } from '#local/dynamodb/proxy.ts';

export type SeenRequest = {
  /** The DynamoDB operation (GetItem, Query, PutItem, ...), from X-Amz-Target. */
  operation: string;
  /** The request's JSON, as the SDK sent it. */
  body: string;
};

/** How long to hold one request: before forwarding it, and after its answer came back. */
type Hold = { beforeMs?: number; afterMs?: number };

/** Picks the requests to hold: undefined lets a request through at once. */
export type HoldRule = (request: SeenRequest) => Hold | undefined;

export async function startDelayingDynamoDb(target: string) {
  let rule: HoldRule | undefined;
  /** Called, once each, when a request's answer starts being held: its write is in the table by then. */
  let answerHeld: ((request: SeenRequest) => void)[] = [];
  const seen = ({ operation, body }: ProxiedRequest): SeenRequest => ({
    operation,
    body: body.toString('utf8'),
  });

  const proxy = await startDynamoDbProxy(target, {
    async answer(request) {
      const beforeMs = rule?.(seen(request))?.beforeMs;
      if (beforeMs) await sleep(beforeMs);
      return undefined;
    },
    async observe(request) {
      const afterMs = rule?.(seen(request))?.afterMs;
      if (!afterMs) return;
      for (const notify of answerHeld.splice(0)) notify(seen(request));
      await sleep(afterMs);
    },
  });

  return {
    endpoint: proxy.endpoint,
    /** Holds the requests `next` picks from now on; undefined lets every request through. */
    hold(next: HoldRule | undefined) {
      rule = next;
    },
    /** Resolves when the next request whose answer is held has been answered by DynamoDB. */
    nextHeldAnswer(): Promise<SeenRequest> {
      return new Promise((resolve) => answerHeld.push(resolve));
    },
    close: () => {
      answerHeld = [];
      return proxy.close();
    },
  };
}

export type DelayingDynamoDb = Awaited<ReturnType<typeof startDelayingDynamoDb>>;
