// One JSON line per request in the stage's access log. The caller is named by the authorizer's
// principal (the API key's id, never the key) and the Authorization header is never logged. The
// functions' request ids join the line to their logs (lib/monitoring/log-queries.ts).
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

export const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    extendedRequestId: AccessLogField.contextExtendedRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    sourceIp: AccessLogField.contextIdentitySourceIp(),
    userAgent: AccessLogField.contextIdentityUserAgent(),
    method: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    path: AccessLogField.contextPath(),
    protocol: AccessLogField.contextProtocol(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatencyMs: AccessLogField.contextResponseLatency(),
    integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    // The route function's Lambda request id: its log lines' function_request_id.
    functionRequestId: '$context.integration.requestId',
    authorizerRequestId: AccessLogField.contextAuthorizerRequestId(),
    principalId: AccessLogField.contextAuthorizerPrincipalId(),
    errorType: AccessLogField.contextErrorResponseType(),
    errorMessage: AccessLogField.contextErrorMessage(),
    authorizerError: AccessLogField.contextAuthorizerError(),
    integrationError: AccessLogField.contextIntegrationErrorMessage(),
    xrayTraceId: AccessLogField.contextXrayTraceId(),
  }),
);
