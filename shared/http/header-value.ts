import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * Header names are case-insensitive, and API Gateway passes them as the client spelled them; of
 * a header repeated under several spellings, the last one counts, as within one spelling.
 */
export function headerValue(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(event.headers ?? {}).findLast(
    ([key, value]) => key.toLowerCase() === wanted && value !== undefined,
  )?.[1];
}
