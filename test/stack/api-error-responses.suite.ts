// API Gateway's own answers (lib/api-error-responses.ts): 404 and 405 from mock integrations and
// every gateway response, each the Error object with the security headers of every response.
import { describe, expect, test } from '@jest/globals';
import { errorBodyTemplate } from '#lib/api-error-responses.ts';
import { ErrorBody } from '#shared/api-error.ts';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses.ts';
import { RESPONSE_HEADERS } from '#shared/http/json-response.ts';
import { ALLOWED_METHODS } from '#shared/http/routes.ts';
import { defined, synthesized } from './synthesize.ts';
import type { Properties, SynthesizedStage } from './synthesize.ts';
import { methodAt, ref, templateJson } from './templates.ts';

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

    test('every type that can reach a client, and only those of the shared module', () => {
      expect([...responses.keys()].sort()).toEqual(GATEWAY_RESPONSES.map(({ type }) => type).sort());
      expect([...responses.keys()]).toEqual(
        expect.arrayContaining([
          'UNAUTHORIZED',
          'ACCESS_DENIED',
          'MISSING_AUTHENTICATION_TOKEN',
          'BAD_REQUEST_PARAMETERS',
          'BAD_REQUEST_BODY',
          'REQUEST_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'THROTTLED',
          'QUOTA_EXCEEDED',
          'AUTHORIZER_FAILURE',
          'AUTHORIZER_CONFIGURATION_ERROR',
          'INTEGRATION_FAILURE',
          'INTEGRATION_TIMEOUT',
          'DEFAULT_4XX',
          'DEFAULT_5XX',
        ]),
      );
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
