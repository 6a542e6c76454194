// The request each subject is measured with, as Lambda receives it: a REST API proxy event after
// the authorizer allowed it (built like the local server builds it), or the authorizer's TOKEN
// event. The same request goes to the function and to its baseline.
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { toProxyEvent } from '#local/api-gateway/proxy-event.ts';
import { createPetRequest, getPetRequest, listPetsRequest } from '#local/api-gateway/proxy-requests.ts';
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

export function subjectEvent(
  subject: SubjectName,
  fixture: Fixture,
): { event: unknown; expectedStatus: number } {
  switch (subject) {
    case 'listPets':
      return { event: toProxyEvent(listPetsRequest(LIST_QUERY)), expectedStatus: 200 };
    case 'getPet':
      return { event: toProxyEvent(getPetRequest(String(fixture.petId))), expectedStatus: 200 };
    case 'createPet':
      return { event: toProxyEvent(createPetRequest(NEW_PET)), expectedStatus: 201 };
    case 'authorizer':
      return { event: tokenEvent(fixture.apiKey), expectedStatus: 200 };
  }
}
