// Methods API Gateway answers itself with an Error object, through a mock integration: ANY on
// unknown paths (404) and ANY on known paths, which API Gateway picks only when no specific method
// matches (405 with Allow). They sit behind the authorizer like every route: 401 comes first.
import { MockIntegration, PassthroughBehavior } from 'aws-cdk-lib/aws-apigateway';
import type { IAuthorizer, IResource } from 'aws-cdk-lib/aws-apigateway';
import { JSON_CONTENT_TYPE, errorBodyTemplate, staticHeaderValues } from '#lib/error-templates.ts';
import type { ApiError } from '#shared/errors.ts';
import { RESPONSE_HEADERS } from '#shared/http/responses.ts';

const methodResponseHeaders = <T>(headers: Record<string, T>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, value]),
  );

export function addErrorMethod(resource: IResource, error: ApiError, authorizer: IAuthorizer): void {
  const statusCode = String(error.status);
  const headers = { ...RESPONSE_HEADERS, ...error.headers };
  const integration = new MockIntegration({
    // A body of another content type still reaches the mock, which answers this error instead of
    // API Gateway's 415: the contract puts 404 and 405 before 415.
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    requestTemplates: { [JSON_CONTENT_TYPE]: JSON.stringify({ statusCode: error.status }) },
    integrationResponses: [
      {
        statusCode,
        responseTemplates: errorBodyTemplate(error.toBody()),
        responseParameters: methodResponseHeaders(staticHeaderValues(headers)),
      },
    ],
  });
  const declaredHeaders = Object.fromEntries(Object.keys(headers).map((name) => [name, true]));
  resource.addMethod('ANY', integration, {
    authorizer,
    apiKeyRequired: true,
    methodResponses: [{ statusCode, responseParameters: methodResponseHeaders(declaredHeaders) }],
  });
}
