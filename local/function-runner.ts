// How the local gateway calls a function, whichever runs it: the handlers in this process
// (below, for `npm start` and the tests) or the bundled assets in child processes, one per
// concurrent instance (local/lambda-instances.ts, for `start:stage`). An invocation either
// answers or fails the ways Lambda reports to API Gateway.
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '#local/lambda-context.ts';

export type Invocation =
  | { ok: true; result: unknown }
  | {
      ok: false;
      /**
       * error: the handler threw (its message, e.g. an authorizer's "Unauthorized"), or its
       * instance died; timeout: past the function's timeout; throttled: no instance to be had.
       */
      failure: 'error' | 'timeout' | 'throttled';
      message: string;
    };

export type FunctionRunner = {
  invoke(functionName: string, event: unknown, requestId?: string): Promise<Invocation>;
  close(): Promise<void>;
};

type Handler = (event: never, context: Context) => Promise<unknown>;

/** The handlers themselves, called in this process: no isolation, no timeout, no cold starts. */
export function inProcessFunctions(handlers: Record<string, Handler>): FunctionRunner {
  async function invoke(functionName: string, event: unknown, requestId = randomUUID()): Promise<Invocation> {
    const handler = handlers[functionName];
    if (!handler) return { ok: false, failure: 'error', message: `No function named ${functionName}` };
    try {
      return { ok: true, result: await handler(event as never, lambdaContext(requestId)) };
    } catch (error) {
      return { ok: false, failure: 'error', message: (error as Error).message };
    }
  }
  return { invoke, close: async () => undefined };
}
