// API Gateway's metrics of the stage v1, or of one of its methods (the stage's detailed metrics),
// named by the API's literal name, not by a reference to the stage resource. The rollout's deployment
// groups name the alarms on them, each function alias's UpdatePolicy names its group, and the stage is
// deployed from methods that invoke those aliases: a reference would close that circle.
import type { Duration } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { API_METHODS } from '#shared/http/api-methods.ts';
import { STAGE_NAME } from '#shared/http/routes.ts';

/** A method of the API, as API Gateway's Method and Resource dimensions name it. */
export type ApiMethodDimensions = { httpMethod: string; resource: string };

/** The method whose function is named `operationId`: the dimensions of that route's metrics. */
export function methodOfRoute(operationId: string): ApiMethodDimensions {
  const method = API_METHODS.find((candidate) => candidate.operationId === operationId);
  if (!method) throw new Error(`No API method runs ${operationId}`);
  return method;
}

/** The route as on-call reads it: `GET /pets/{petId}`. */
export function routeLabel(operationId: string): string {
  const { httpMethod, resource } = methodOfRoute(operationId);
  return `${httpMethod} ${resource}`;
}

export const apiMetric = (
  apiName: string,
  metricName: string,
  options: { period: Duration; statistic: string },
  method?: ApiMethodDimensions,
) =>
  new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: {
      ApiName: apiName,
      ...(method && { Method: method.httpMethod, Resource: method.resource }),
      Stage: STAGE_NAME,
    },
    ...options,
  });
