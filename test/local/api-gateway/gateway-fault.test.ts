// A fault of the local gateway itself, which no step expected: the client gets API Gateway's 502,
// and the cause is reported with the request id, never swallowed. The functions are a stand-in
// runner that throws, the one way to make the gateway fail on purpose.
import { describe, expect, it, jest } from '@jest/globals';
import { apiDefinitionFromModules } from '#local/api-gateway/definition.ts';
import { createApiGateway } from '#local/api-gateway/gateway.ts';
import type { GatewayFault } from '#local/api-gateway/gateway.ts';
import type { FunctionRunner } from '#local/lambda/runner.ts';

const throwingRunner: FunctionRunner = {
  invoke: () => {
    throw new TypeError('runner broke');
  },
  close: async () => undefined,
};

const request = {
  method: 'GET',
  target: '/v1/pets?limit=1',
  headers: [['Authorization', 'Bearer psk_anything']] as [string, string][],
  body: Buffer.alloc(0),
  bodyBytes: 0,
  sourceIp: '127.0.0.1',
  requestId: 'request-1',
};

describe('an unexpected exception in the gateway', () => {
  it("is answered with API Gateway's 502 and reported with the request id and its cause", async () => {
    const faults: GatewayFault[] = [];
    const gateway = createApiGateway({
      definition: apiDefinitionFromModules(),
      functions: throwingRunner,
      reportFault: (fault) => faults.push(fault),
    });
    const answer = await gateway(request);
    expect(answer.statusCode).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 502 });
    expect(faults).toEqual([
      {
        requestId: 'request-1',
        method: 'GET',
        target: '/v1/pets?limit=1',
        error: expect.stringMatching(/^TypeError: runner broke\n\s+at /),
      },
    ]);
  });

  it('is written to stderr as one JSON line by default', async () => {
    const written = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await createApiGateway({ definition: apiDefinitionFromModules(), functions: throwingRunner })(request);
      expect(written).toHaveBeenCalledTimes(1);
      const [line] = written.mock.calls[0] ?? [];
      expect(JSON.parse(String(line))).toMatchObject({ level: 'ERROR', requestId: 'request-1' });
    } finally {
      written.mockRestore();
    }
  });
});
