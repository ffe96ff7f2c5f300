// The console's way to the API: the SDK's typed client (clients/ts) with retries switched off, so nothing is retried
// behind the user's back; a failure becomes an ApiFailure the screens show (message, code, when to retry).
import { createPetApiClient, type PetApiClient } from '../../clients/ts/src/client.ts';
import { type CallResult, PetApiError } from '../../clients/ts/src/errors.ts';

export type { Schema } from '../../clients/ts/src/client.ts';
export type Api = PetApiClient;

/** The API next to this page: the console is served at `<base>/console`, the API at `<base>`. */
const apiBase = () => new URL('.', window.location.href).href.replace(/\/$/, '');

export const apiFor = (apiKey: string): Api => createPetApiClient({ baseUrl: apiBase(), apiKey, retry: false });

/** The spec's error record of a failed call, with Retry-After (seconds) when the API sent it (429, 503). */
export class ApiFailure extends PetApiError {
  readonly retryAfterSeconds: number | undefined;

  constructor(response: Response, body: unknown) {
    super(response, body);
    const retryAfter = response.headers.get('retry-after');
    this.retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  }
}

/** The data of a successful call; a failed one throws ApiFailure. */
export async function ok<T>(call: Promise<CallResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiFailure(response, error);
  return data as T;
}

/** Data and headers (Pagination-Count, Next-Cursor) of a successful call. */
export async function withHeaders<T>(call: Promise<CallResult<T>>): Promise<{ data: T; headers: Headers }> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiFailure(response, error);
  return { data: data as T, headers: response.headers };
}
