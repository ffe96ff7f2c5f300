import { getTokenSecret } from '../../shared/auth/token-secret.ts';
import { issueToken } from '../../shared/auth/tokens.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idempotency } from '../../shared/http/idempotency.ts';
import { route } from './routes.ts';

/** Exchanges an API key for a short-lived bearer token. */
export const handler = httpRoute(
  route('auth.token'),
  {
    idempotency,
    summary: 'Exchange your API key for a bearer token',
    description: 'Votes and favourites accept the token instead of the key (spec: list and look-up of votes need it).',
  },
  async ({ account }, deps) =>
    issueToken(await getTokenSecret(deps), account.id, deps.now(), deps.config.tokenTtlSeconds),
);
