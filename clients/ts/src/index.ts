// The typed client: openapi-fetch over the types openapi-typescript generates from docs/openapi.json (`npm run
// openapi` writes src/schema.ts). Paths, parameters, bodies and responses are checked by the compiler.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, paths, webhooks } from './schema.ts';
export { verifyWebhook, type WebhookVerification } from './webhooks.ts';

/** A schema of the document by name, e.g. `Schema<'Pet'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface PetApiClientOptions {
  /** The API's base URL including `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Sent as `Authorization: Bearer …` (from `POST /auth/token`). */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

export function createPetApiClient(options: PetApiClientOptions) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
  });
  const credentials: Middleware = {
    onRequest({ request }) {
      if (options.apiKey) request.headers.set('x-api-key', options.apiKey);
      if (options.token) request.headers.set('authorization', `Bearer ${options.token}`);
      return request;
    },
  };
  client.use(credentials);
  return client;
}

export type PetApiClient = ReturnType<typeof createPetApiClient>;
