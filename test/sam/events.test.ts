// The sample events of sam/events/ (for `sam local invoke`) are what API Gateway sends each function:
// REST (v1) proxy events of stage v1 carrying the authorizer's context, and a TOKEN event. Each is
// run through its real handler on the embedded DynamoDB, in the order a client would call them.
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { AUTHORIZER, ROUTES, STAGE_NAME } from '#shared/http/routes.ts';
import { lambdaContext } from '#local/lambda/context.ts';
import { readRepoJson } from '#test/support/repository.ts';
import { testApiKeys, testFunctions } from '#test/support/test-table.ts';

const { authorizer, createPet, getPet, listPets } = testFunctions;

const readEvent = <T>(name: string) => readRepoJson(`sam/events/${name}.json`) as T;

const ROUTE_EVENTS = {
  listPets: readEvent<APIGatewayProxyEvent>('list-pets'),
  createPet: readEvent<APIGatewayProxyEvent>('create-pet'),
  getPet: readEvent<APIGatewayProxyEvent>('get-pet'),
};
const authorizerEvent = readEvent<APIGatewayTokenAuthorizerEvent>('authorizer');

describe.each(ROUTES)('events for $operationId', (route) => {
  const event = ROUTE_EVENTS[route.operationId];

  test('is a REST (v1) proxy event of its route on stage v1, after the authorizer', () => {
    expect(event).toMatchObject({ httpMethod: route.method, resource: route.path, isBase64Encoded: false });
    expect(event.requestContext).toMatchObject({
      stage: STAGE_NAME,
      httpMethod: route.method,
      resourcePath: route.path,
      path: `/${STAGE_NAME}${event.path}`,
      authorizer: { principalId: expect.any(String) },
    });
    expect(event.headers.Authorization).toMatch(new RegExp(AUTHORIZER.validationRegex));
    expect(event.multiValueHeaders).toEqual(
      Object.fromEntries(Object.entries(event.headers).map(([name, value]) => [name, [value]])),
    );
  });
});

describe('the handlers answer the sample events', () => {
  test('createPet: 201 with the Animal and its Location', async () => {
    const response = await createPet(ROUTE_EVENTS.createPet, lambdaContext());
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toMatchObject({
      id: 1,
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
  });

  test('listPets: 200 with the animals of the status filter', async () => {
    const response = await listPets(ROUTE_EVENTS.listPets, lambdaContext());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  });

  test('getPet: 200 with the animal of the path parameter', async () => {
    const response = await getPet(ROUTE_EVENTS.getPet, lambdaContext());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ id: 1 });
  });

  test('the authorizer allows the whole stage for a known key, and refuses an unknown one', async () => {
    await expect(authorizer(authorizerEvent, lambdaContext())).rejects.toThrow('Unauthorized');
    const key = await testApiKeys.register(
      'sam local sample',
      authorizerEvent.authorizationToken.replace(/^Bearer /, ''),
    );
    const result = await authorizer(authorizerEvent, lambdaContext());
    expect(result.principalId).toBe(key?.id);
    expect(result.policyDocument.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Resource: authorizerEvent.methodArn.replace(/\/GET\/pets$/, '/*'),
      }),
    ]);
  });
});
