// Bearer tokens (POST /auth/token issues them) on the routes whose auth mode accepts them (`acceptsBearer`,
// shared/auth/authenticate.ts): reading the Authorization header and verifying the token under the signing secret.
import type { Deps } from '../deps.ts';
import { getTokenSecret } from './token-secret.ts';
import { MAX_TOKEN_LENGTH, verifyToken } from './tokens.ts';

const BEARER = /^Bearer\s+(\S+)$/i;
/** Longer Authorization headers are not a token this service issued: refused before any pattern runs. */
const MAX_AUTHORIZATION_LENGTH = MAX_TOKEN_LENGTH + 'Bearer '.length + 16;

export function tokenOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  // An over-long header is still a bearer credential (answered invalid_token), one verifyToken refuses on length.
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) {
    return authorization.slice(0, 7).toLowerCase() === 'bearer ' ? authorization.slice(7) : undefined;
  }
  return BEARER.exec(authorization)?.[1];
}

/** Checks tokens against the signing secret, read once per call (the secret reader caches it per container). */
export async function tokenVerifier(deps: Pick<Deps, 'config' | 'now'>) {
  const secret = await getTokenSecret(deps);
  return (token: string) => verifyToken(secret, token, deps.now());
}
