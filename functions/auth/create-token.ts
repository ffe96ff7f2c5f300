import { getTokenSecret } from '../../shared/auth/token-secret.ts';
import { issueToken } from '../../shared/auth/tokens.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** Exchanges an API key for a short-lived bearer token. */
export const handler = httpRoute(route('auth.token'), {}, async ({ account }, deps) =>
  issueToken(await getTokenSecret(deps), account.id, deps.now(), deps.config.tokenTtlSeconds),
);
