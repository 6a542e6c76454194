// Every gateway response of shared/http/gateway-responses.ts (the module the local server uses):
// API Gateway's own 4xx and 5xx answers carry the Error object with their literal status.
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorBodyTemplate, staticHeaderValues } from '#lib/error-templates.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';

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
