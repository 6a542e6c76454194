import type { APIGatewayProxyEvent } from 'aws-lambda';

/** Header names are case-insensitive; API Gateway passes them as the client sent them. */
export function headerValue(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}
