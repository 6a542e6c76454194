// API Gateway's own answers (lib/api/gateway-responses.ts): 404 and 405 from mock integrations and
// every gateway response type API Gateway has, each the Error object of the contract with the
// security headers of every response.
import { describe, expect, test } from '@jest/globals';
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { errorBodyTemplate } from '#lib/api/gateway-responses.ts';
import { ErrorBody } from '#shared/api-error.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';
import { RESPONSE_HEADERS } from '#shared/http/json-response.ts';
import { ALLOWED_METHODS } from '#shared/http/routes.ts';
import { synthesized } from '#test/lib/synthesize.ts';
import { defined } from '#test/support/defined.ts';
import type { Properties, SynthesizedStage } from '#test/lib/synthesize.ts';
import { methodAt, ref, templateJson } from '#test/lib/templates.ts';

/** Every response type of API Gateway's reference, as aws-cdk-lib lists them. */
const API_GATEWAY_RESPONSE_TYPES = Object.values(ResponseType)
  .filter((value): value is ResponseType => value instanceof ResponseType)
  .map(({ responseType }) => responseType)
  .sort();

/** What the contract answers for each type API Gateway can produce. */
const CONTRACT_ANSWERS: Record<string, [code: string, status: number]> = {
  UNAUTHORIZED: ['unauthorized', 401],
  ACCESS_DENIED: ['forbidden', 403],
  INVALID_API_KEY: ['unauthorized', 401],
  EXPIRED_TOKEN: ['unauthorized', 401],
  INVALID_SIGNATURE: ['unauthorized', 401],
  MISSING_AUTHENTICATION_TOKEN: ['not_found', 404],
  RESOURCE_NOT_FOUND: ['not_found', 404],
  BAD_REQUEST_PARAMETERS: ['validation_error', 400],
  BAD_REQUEST_BODY: ['validation_error', 400],
  REQUEST_TOO_LARGE: ['payload_too_large', 413],
  UNSUPPORTED_MEDIA_TYPE: ['unsupported_media_type', 415],
  THROTTLED: ['too_many_requests', 429],
  QUOTA_EXCEEDED: ['too_many_requests', 429],
  WAF_FILTERED: ['forbidden', 403],
  DEFAULT_4XX: ['validation_error', 400],
  AUTHORIZER_FAILURE: ['service_unavailable', 503],
  AUTHORIZER_CONFIGURATION_ERROR: ['internal_error', 500],
  API_CONFIGURATION_ERROR: ['internal_error', 500],
  INTEGRATION_FAILURE: ['service_unavailable', 502],
  INTEGRATION_TIMEOUT: ['service_unavailable', 504],
  DEFAULT_5XX: ['service_unavailable', 502],
};

describe('errorBodyTemplate', () => {
  test.each(['$context.requestId', '#set'])(
    'refuses an Error body with %s: Velocity would not render it as it stands',
    (text) => {
      expect(() => errorBodyTemplate({ code: 'not_found', message: text, status: 404 })).toThrow(
        'must not contain $ or #',
      );
    },
  );
});

describe.each([synthesized.staging, synthesized.production])('the $name stack', (stage: SynthesizedStage) => {
  const [apiId] = stage.only('AWS::ApiGateway::RestApi');

  describe('methods', () => {
    type MockIntegration = {
      Type: string;
      PassthroughBehavior: string;
      RequestTemplates: Record<string, string>;
      IntegrationResponses: {
        StatusCode: string;
        ResponseTemplates: unknown;
        ResponseParameters: Properties;
      }[];
    };

    /** The one answer of the mock integration of ANY at this path, checked against its method. */
    const mockAnswer = (path: string) => {
      const method = methodAt(stage, path, 'ANY');
      const integration = method.Integration as MockIntegration;
      expect(integration).toMatchObject({ Type: 'MOCK', PassthroughBehavior: 'WHEN_NO_MATCH' });
      const [response, ...others] = integration.IntegrationResponses;
      expect(others).toEqual([]);
      const { StatusCode, ResponseTemplates, ResponseParameters } = defined(response, 'integration response');
      expect(templateJson(integration.RequestTemplates)).toEqual({ statusCode: Number(StatusCode) });
      const body = ErrorBody.parse(templateJson(ResponseTemplates));
      expect(body.status).toBe(Number(StatusCode));
      expect(method.MethodResponses).toEqual([
        {
          StatusCode,
          ResponseParameters: Object.fromEntries(
            Object.keys(ResponseParameters).map((header) => [header, true]),
          ),
        },
      ]);
      for (const [header, value] of Object.entries(RESPONSE_HEADERS)) {
        expect(ResponseParameters[`method.response.header.${header}`]).toBe(`'${value}'`);
      }
      return { body, headers: ResponseParameters };
    };

    test.each(['/', '/{proxy+}'])('ANY %s answers 404 not_found (unknown path)', (path) => {
      expect(mockAnswer(path).body).toMatchObject({ code: 'not_found', status: 404 });
    });

    test.each(Object.entries(ALLOWED_METHODS))('ANY %s answers 405 with Allow: %s', (path, allowed) => {
      const { body, headers } = mockAnswer(path);
      expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
      expect(headers['method.response.header.Allow']).toBe(`'${allowed.join(', ')}'`);
    });
  });

  describe('gateway responses', () => {
    const responses = new Map(
      stage
        .all('AWS::ApiGateway::GatewayResponse')
        .map(([, resource]) => [String(resource.Properties.ResponseType), resource.Properties]),
    );

    test("every type API Gateway has, those of the shared module, each with the contract's answer", () => {
      expect([...responses.keys()].sort()).toEqual(GATEWAY_RESPONSES.map(({ type }) => type).sort());
      // A status code on DEFAULT_4XX becomes the status of every 4XX type not customized: each
      // is, so that none answers 400 by that rule. A type added to API Gateway (and to
      // aws-cdk-lib) fails here until it has its answer.
      expect([...responses.keys()].sort()).toEqual(API_GATEWAY_RESPONSE_TYPES);
      for (const [type, [code, status]] of Object.entries(CONTRACT_ANSWERS)) {
        const response = defined(responses.get(type), type);
        expect([type, templateJson(response.ResponseTemplates)]).toEqual([
          type,
          expect.objectContaining({ code, status }),
        ]);
        expect([type, response.StatusCode]).toEqual([type, String(status)]);
      }
    });

    test.each(GATEWAY_RESPONSES)(
      '$type renders an Error object whose status is its status code',
      (expected) => {
        const response = defined(responses.get(expected.type), expected.type);
        expect(response.RestApiId).toEqual(ref(apiId));
        const body = ErrorBody.parse(templateJson(response.ResponseTemplates));
        expect(body.status).toBe(Number(response.StatusCode));
        expect(body).toEqual(expected.body);
        const headers = (values: Record<string, string>) =>
          Object.fromEntries(
            Object.entries(values).map(([header, value]) => [
              `gatewayresponse.header.${header}`,
              `'${value}'`,
            ]),
          );
        expect(response.ResponseParameters).toEqual(headers(expected.headers));
        expect(response.ResponseParameters).toMatchObject(headers(RESPONSE_HEADERS));
      },
    );
  });
});
