// The requests each subject is measured with, as Lambda receives them: REST API proxy events after
// the authorizer allowed them (built like the local server builds them), or the authorizer's TOKEN
// event. The same requests go to the function and to its baseline. getPet asks for each seeded pet
// in turn: at scale nearly every getPet misses the function's cache of pets read, and reads DynamoDB.
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { toProxyEvent } from '../../shared/http/proxy-event.ts';
import { createPetRequest, getPetRequest, listPetsRequest } from '../../local/api-gateway/proxy-requests.ts';
import type { Fixture } from '#bench/dynamodb/fixture.ts';
import type { SubjectName } from '#bench/subjects.ts';

export const NEW_PET = { name: 'Rex', categoryId: 1, status: 'available' };
/** The filtered listing: the replacement of the deprecated getPet, and the costlier Query (GSI). */
export const LIST_QUERY = 'status=available';

export const tokenEvent = (apiKey: string): APIGatewayTokenAuthorizerEvent => ({
  type: 'TOKEN',
  authorizationToken: `Bearer ${apiKey}`,
  methodArn: 'arn:aws:execute-api:us-east-1:123456789012:bench/v1/GET/pets',
});

export function subjectEvents(
  subject: SubjectName,
  fixture: Fixture,
): { events: unknown[]; expectedStatus: number } {
  switch (subject) {
    case 'listPets':
      return { events: [toProxyEvent(listPetsRequest(LIST_QUERY))], expectedStatus: 200 };
    case 'getPet':
      return {
        events: fixture.petIds.map((petId) => toProxyEvent(getPetRequest(String(petId)))),
        expectedStatus: 200,
      };
    case 'createPet':
      return { events: [toProxyEvent(createPetRequest(NEW_PET))], expectedStatus: 201 };
    case 'authorizer':
      return { events: [tokenEvent(fixture.apiKey)], expectedStatus: 200 };
  }
}
