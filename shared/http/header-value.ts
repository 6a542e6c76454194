// Request headers of an API Gateway proxy event, read as HTTP means them: names in any case, and
// every value of a repeated header.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from '#shared/api-error.ts';

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

/**
 * Every value a header was sent with, under any spelling: API Gateway's single-value map keeps only
 * the last of a repeated header, its multi-value map keeps them all.
 */
export function headerValues(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  name: string,
): string[] {
  const wanted = name.toLowerCase();
  const all = Object.entries(event.multiValueHeaders ?? {}).flatMap(([key, values]) =>
    key.toLowerCase() === wanted ? (values ?? []) : [],
  );
  if (all.length > 0) return all;
  const last = headerValue(event, name);
  return last === undefined ? [] : [last];
}

/**
 * A header that must come once came more often: a proxy in front that reads the first value would
 * disagree with us, who would read the last.
 */
export const sentOnce = (name: string, times?: number) =>
  new ApiError(
    'validation_error',
    `${name}: must be sent once${times === undefined ? '' : `, not ${times} times`}`,
  );
