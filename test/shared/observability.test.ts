// Logs and metrics as CloudWatch reads them from stdout: one JSON line per log entry, and metrics
// in embedded metric format (shared/observability.ts).
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { createSourceFunctions } from '#local/lambda/source-functions.ts';
import { toProxyEvent } from '#shared/http/proxy-event.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { createPetRequest, getPetRequest } from '#local/api-gateway/proxy-requests.ts';
import { createObservability } from '#shared/observability.ts';
import type { LogLevel } from '#shared/observability.ts';
import { StoreUnavailableError } from '#shared/store/unavailable-error.ts';
import { TEST_CURSOR_SECRET, testTable } from '#test/support/test-table.ts';

type Line = Record<string, unknown> & {
  _aws?: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
};

let lines: Line[] = [];
beforeEach(() => {
  lines = [];
});
const write = (line: string) => {
  expect(line.endsWith('\n')).toBe(true);
  lines.push(JSON.parse(line) as Line);
};
const STAGE = 'staging';
const observed = (options: { logLevel?: LogLevel; metrics?: false } = {}) =>
  createObservability({ metrics: { stage: STAGE }, ...options, write });
const metricDocuments = () => lines.filter((line) => line._aws);
const metricNames = () =>
  metricDocuments().flatMap((line) =>
    Object.keys(line).filter((name) => !['_aws', 'service', 'stage', 'function_name'].includes(name)),
  );

const badKeyEvent: APIGatewayTokenAuthorizerEvent = {
  type: 'TOKEN',
  authorizationToken: 'Bearer psk_secret_never_logged',
  methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc/v1/GET/pets',
};

describe('metrics', () => {
  it('counts a cold start once, by function, and each created pet, in the PetStore namespace, by stage', async () => {
    const { createPet } = createSourceFunctions({
      table: testTable,
      cursorSecret: TEST_CURSOR_SECRET,
      observability: observed(),
    });
    const event = () => toProxyEvent(createPetRequest({ name: 'Counted', categoryId: 1 }));
    expect((await createPet(event(), lambdaContext())).statusCode).toBe(201);
    expect((await createPet(event(), lambdaContext())).statusCode).toBe(201);
    expect(metricNames()).toEqual(['ColdStart', 'PetsCreated', 'PetsCreated']);
    const [coldStart, created] = metricDocuments();
    expect(coldStart).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'PetStore',
            Dimensions: [['service', 'stage', 'function_name']],
            Metrics: [{ Name: 'ColdStart', Unit: 'Count' }],
          },
        ],
      },
      service: 'petstore',
      stage: STAGE,
      function_name: lambdaContext().functionName,
      ColdStart: 1,
    });
    expect(created).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'PetStore',
            Dimensions: [['service', 'stage']],
            Metrics: [{ Name: 'PetsCreated', Unit: 'Count' }],
          },
        ],
      },
      service: 'petstore',
      stage: STAGE,
      PetsCreated: 1,
    });
    expect(Math.abs((created?._aws?.Timestamp ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('counts authorization failures and never writes the key it was given', async () => {
    const { authorizer } = createSourceFunctions({
      table: testTable,
      cursorSecret: TEST_CURSOR_SECRET,
      observability: observed(),
    });
    await expect(authorizer(badKeyEvent, lambdaContext())).rejects.toThrow('Unauthorized');
    expect(metricNames()).toEqual(['ColdStart', 'AuthFailures']);
    expect(JSON.stringify(lines)).not.toContain('psk_secret_never_logged');
  });

  it('writes no metric where they are off', async () => {
    const { authorizer } = createSourceFunctions({
      table: testTable,
      cursorSecret: TEST_CURSOR_SECRET,
      observability: observed({ metrics: false }),
    });
    await expect(authorizer(badKeyEvent, lambdaContext())).rejects.toThrow('Unauthorized');
    expect(lines).toEqual([]);
  });
});

describe('logs', () => {
  it('write an outage as a warning with the invocation it happened in and the error with its stack', async () => {
    const observability = observed({ metrics: false });
    const { getPet } = createSourceFunctions({
      table: {
        ...testTable,
        get: () => Promise.reject(new StoreUnavailableError(new Error('socket hang up'))),
      },
      cursorSecret: TEST_CURSOR_SECRET,
      observability,
    });
    const context = lambdaContext();
    const event = toProxyEvent(getPetRequest('1'));
    const response = await getPet(event, context);
    expect(response.statusCode).toBe(503);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: 'DynamoDB unavailable',
        service: 'petstore',
        function_name: context.functionName,
        function_request_id: context.awsRequestId,
        // What the access log line of the same request carries: one query finds both.
        api_request_id: event.requestContext.requestId,
        api_extended_request_id: event.requestContext.extendedRequestId,
        requestId: context.awsRequestId,
        error: expect.objectContaining({
          name: 'Error',
          message: 'socket hang up',
          stack: expect.any(String),
        }),
      }),
    ]);
    expect(Number.isNaN(Date.parse(String(lines[0]?.timestamp)))).toBe(false);
  });

  it('keep entries at or above the level: ERROR drops warnings, OFF drops everything', () => {
    observed({ logLevel: 'ERROR' }).logger.warn('dropped');
    observed({ logLevel: 'ERROR' }).logger.error('kept', { cause: new Error('why', { cause: 'root' }) });
    observed({ logLevel: 'OFF' }).logger.error('dropped too');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'kept',
        cause: expect.objectContaining({ message: 'why', cause: 'root' }),
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('function_request_id');
  });
});
