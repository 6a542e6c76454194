// What the client's helpers throw when the API answers with an error: its typed body, when the
// response carries one, and the Response itself, for its status and headers (Retry-After, say).
import type { components } from './schema.ts';

type ErrorBody = components['schemas']['Error'];

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as ErrorBody).code === 'string' &&
  typeof (body as ErrorBody).message === 'string' &&
  typeof (body as ErrorBody).status === 'number';

export class PetStoreError extends Error {
  override readonly name = 'PetStoreError';
  /** The API's `{ code, message, status }`; undefined when the response is not one (a proxy's page). */
  readonly body: ErrorBody | undefined;
  readonly response: Response;
  /** The response's HTTP status. */
  readonly status: number;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : undefined;
    super(
      error
        ? `${error.code} (${response.status}): ${error.message}`
        : `The API answered ${response.status} without its error body`,
    );
    this.body = error;
    this.response = response;
    this.status = response.status;
  }
}
