// The shape of every response the functions send; API Gateway's own answers carry the same headers.
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiError } from '#shared/api-error.ts';
import { stringifyJson } from '#shared/json.ts';

export const RESPONSE_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
} as const;

/** Response headers by name (not the fetch API's Headers class). */
export type HeaderMap = Record<string, string>;

const jsonResponse = (statusCode: number, body: unknown, headers: HeaderMap = {}): APIGatewayProxyResult => ({
  statusCode,
  headers: { ...RESPONSE_HEADERS, ...headers },
  body: stringifyJson(body),
});

export const ok = (body: unknown, headers?: HeaderMap) => jsonResponse(200, body, headers);
export const created = (body: unknown, headers?: HeaderMap) => jsonResponse(201, body, headers);
export const errorResponse = (error: ApiError) => jsonResponse(error.status, error.toBody(), error.headers);
