import { getTokenSecret } from '../../shared/auth/token-secret.ts';
import { issueToken } from '../../shared/auth/tokens.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

/** Exchanges an API key for a short-lived bearer token. */
export const handler = httpRoute('auth.token', {}, async ({ account }, deps) =>
  issueToken(await getTokenSecret(deps), account.id, deps.now(), deps.config.tokenTtlSeconds),
);
