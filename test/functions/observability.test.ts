// Powertools metrics in embedded metric format, as CloudWatch reads them from stdout.
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { toProxyEvent } from '#local/proxy-event.ts';
import { lambdaContext } from '#local/lambda-context.ts';
import { createPetRequest } from '#test/support/invoke.ts';
import { createTestTable } from '#test/support/table.ts';

process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
// What Lambda sets for an on-demand instance; Powertools counts cold starts only then.
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
// Loaded only now, so that Powertools reads the settings above.
const { handler: createPet } = (await import('#functions/create-pet.ts')) as {
  handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
};
const { handler: authorize } = await import('#functions/authorizer.ts');

let stdout = '';
const write = process.stdout.write.bind(process.stdout);
beforeAll(async () => {
  await createTestTable();
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
