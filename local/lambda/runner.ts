// How the local gateway calls a function, whichever runner runs it: the handlers in this process or
// the bundled assets in child processes. An invocation either answers or fails the ways Lambda reports
// to API Gateway.
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
