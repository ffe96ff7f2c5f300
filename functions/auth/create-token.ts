import { getTokenSecret } from '../../shared/auth/token-secret.ts';
import { issueToken } from '../../shared/auth/tokens.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const tokenBody = z.object({
  access_token: documented(z.string(), {
    description: 'A JWT (HS256) naming the account; send it as `Authorization: Bearer …`.',
  }),
  token_type: z.literal('Bearer'),
  expires_in: documented(z.int(), { description: 'Seconds until the token expires.' }),
});

/** Exchanges an API key for a short-lived bearer token. */
export const handler = httpRoute(
  route('auth.token'),
  {
    summary: 'Exchange your API key for a bearer token',
    description: 'Votes and favourites accept the token instead of the key (spec: list and look-up of votes need it).',
    response: tokenBody,
  },
  async ({ account }, deps) =>
    issueToken(await getTokenSecret(deps), account.id, deps.now(), deps.config.tokenTtlSeconds),
);
