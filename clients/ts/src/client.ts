// The typed client: openapi-fetch over the types openapi-typescript generates from docs/openapi.json (`npm run
// openapi` writes src/schema.ts and src/idempotent-operations.ts). Paths, parameters, bodies and responses are
// checked by the compiler; every call retries as the spec advises, and writes carry an Idempotency-Key.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { IDEMPOTENT_OPERATIONS } from './idempotent-operations.ts';
import { type FetchLike, IDEMPOTENCY_KEY_HEADER, type RetryOptions, retryingFetch } from './retry.ts';
import type { components, paths } from './schema.ts';

/** A schema of the document by name, e.g. `Schema<'Pet'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface PetApiClientOptions {
  /** The API's base URL including `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Sent as `Authorization: Bearer …` (from `POST /auth/token`). */
  token?: string;
  /** The retry policy (defaults: the spec's), or `false` for one attempt per call. */
  retry?: RetryOptions | false;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: FetchLike;
}

export type PetApiClient = Client<paths> & {
  /** The retrying fetch without the API's credentials: for the presigned part URLs of two-step uploads. */
  readonly transferFetch: FetchLike;
};

export function createPetApiClient(options: PetApiClientOptions): PetApiClient {
  const send = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  const transferFetch = options.retry === false ? send : retryingFetch(send, options.retry);
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: transferFetch });
  client.use(credentials(options), idempotencyKeys);
  return Object.assign(client, { transferFetch });
}

function credentials(options: PetApiClientOptions): Middleware {
  return {
    onRequest({ request }) {
      if (options.apiKey) request.headers.set('x-api-key', options.apiKey);
      if (options.token) request.headers.set('authorization', `Bearer ${options.token}`);
      return request;
    },
  };
}

/**
 * One key per call, made before the first attempt, so every retry of the call repeats it and the API performs the
 * write once. Only on operations that honour the header; a key the caller set is kept.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
      request.headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID());
    }
    return request;
  },
};
