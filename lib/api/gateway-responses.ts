// The answers API Gateway gives by itself, each an Error object: the gateway responses of
// shared/http/gateway-responses.ts, and ANY through a mock integration on unknown paths (404) and on
// known paths, which API Gateway picks only when no specific method matches (405 with Allow). Bodies
// are mapping templates (plain text to API Gateway), headers static values in single quotes.
import { MockIntegration, PassthroughBehavior, ResponseType } from 'aws-cdk-lib/aws-apigateway';
import type { IAuthorizer, IResource, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ApiError, ErrorBody } from '#shared/api-error.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';
import { RESPONSE_HEADERS } from '#shared/http/json-response.ts';

const JSON_CONTENT_TYPE = 'application/json';

/** A template that renders to exactly this Error object. */
export function errorBodyTemplate(body: ErrorBody): Record<string, string> {
  const json = JSON.stringify(body);
  // Templates are Velocity: '$' and '#' would start a reference or a directive.
  if (/[$#]/.test(json)) throw new Error(`An Error body for API Gateway must not contain $ or #: ${json}`);
  return { [JSON_CONTENT_TYPE]: json };
}

/** Header values as API Gateway static values: 'value'. */
function staticHeaderValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));
}

/** API Gateway's own 4xx and 5xx answers, each with its literal status. */
export function addGatewayResponses(api: RestApi): void {
  for (const { type, body, headers } of GATEWAY_RESPONSES) {
    api.addGatewayResponse(type, {
      type: ResponseType.of(type),
      statusCode: String(body.status),
      templates: errorBodyTemplate(body),
      responseHeaders: staticHeaderValues(headers),
    });
  }
}

const methodResponseHeaders = <T>(headers: Record<string, T>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, value]),
  );

/**
 * ANY on this resource, answering this error through a mock integration. It sits behind the
 * authorizer like every route: 401 comes first.
 */
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
