// The in-process runner: the handlers themselves, called in this process. No isolation, no timeout,
// no cold starts.
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '#local/lambda/context.ts';
import type { FunctionRunner, Invocation } from '#local/lambda/runner.ts';

type Handler = (event: never, context: Context) => Promise<unknown>;

export function inProcessRunner(handlers: Record<string, Handler>): FunctionRunner {
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
