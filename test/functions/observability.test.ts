// Powertools metrics in embedded metric format, as CloudWatch reads them from stdout.
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { createLocalFunctions } from '#local/local-functions.ts';
import { toProxyEvent } from '#local/proxy-event.ts';
import { lambdaContext } from '#local/lambda-context.ts';
import { createObservability } from '#shared/observability.ts';
import { createPetRequest } from '#local/proxy-requests.ts';
import { TEST_CURSOR_SECRET, testTable } from '#test/support/test-table.ts';

process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
// What Lambda sets for an on-demand instance; Powertools counts cold starts only then.
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
// Powertools reads the settings above when the functions' Logger and Metrics are built.
const { createPet, authorizer: authorize } = createLocalFunctions({
  table: testTable,
  cursorSecret: TEST_CURSOR_SECRET,
  observability: createObservability(),
});

let stdout = '';
const write = process.stdout.write.bind(process.stdout);
beforeAll(async () => {
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
});
afterAll(() => {
  jest.restoreAllMocks();
  process.stdout.write = write;
});

const metricNames = () =>
  stdout
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .flatMap((line) =>
      JSON.parse(line)._aws.CloudWatchMetrics[0].Metrics.map((metric: { Name: string }) => metric.Name),
    );

it('counts cold starts and created pets', async () => {
  const response = await createPet(
    toProxyEvent(createPetRequest({ name: 'Counted', categoryId: 1 })),
    lambdaContext(),
  );
  expect(response.statusCode).toBe(201);
  expect(metricNames()).toEqual(expect.arrayContaining(['ColdStart', 'PetsCreated']));
});

it('counts authorization failures and never writes the key it was given', async () => {
  const event: APIGatewayTokenAuthorizerEvent = {
    type: 'TOKEN',
    authorizationToken: 'Bearer psk_secret_never_logged',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc/v1/GET/pets',
  };
  await expect(authorize(event, lambdaContext())).rejects.toThrow('Unauthorized');
  expect(metricNames()).toContain('AuthFailures');
  expect(stdout).not.toContain('psk_secret_never_logged');
});
