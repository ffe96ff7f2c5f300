import type { AuthMode, RouteDef } from '../http/route-def.ts';
import { getAccount, getAccountIdByKeyHash } from '../domain/accounts/store.ts';
import type { Deps } from '../deps.ts';
import type { Account } from '../domain/accounts/account.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { hashApiKey } from './api-keys.ts';
import { getTokenSecret } from './token-secret.ts';
import { verifyToken } from './tokens.ts';

type AuthDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

// Warm containers remember resolved credentials for AUTH_CACHE_TTL_SECONDS, as an API Gateway authorizer
// cache would; an account change made through this container is forgotten at once.
const cache = new Map<string, { accountId: string | undefined; account: Account | undefined; until: number }>();

export function forgetAccount(accountId: string): void {
  for (const [key, entry] of cache) if (entry.accountId === accountId) cache.delete(key);
}

export function clearAuthCache(): void {
  cache.clear();
}

async function cached(
  deps: AuthDeps,
  key: string,
  resolveId: () => Promise<string | undefined>,
): Promise<Account | undefined> {
  const nowMs = deps.now().getTime();
  const hit = cache.get(key);
  if (hit && hit.until > nowMs) return hit.account;
  const accountId = await resolveId();
  const account = accountId ? await getAccount(deps, accountId) : undefined;
  const ttlMs = deps.config.authCacheTtlSeconds * 1000;
  if (ttlMs > 0) cache.set(key, { accountId, account, until: nowMs + ttlMs });
  return account;
}

const BEARER = /^Bearer\s+(\S+)$/i;

async function accountFromApiKey(deps: AuthDeps, apiKey: string) {
  const hash = hashApiKey(apiKey);
  return cached(deps, `key:${hash}`, () => getAccountIdByKeyHash(deps, hash));
}

async function accountFromBearer(deps: AuthDeps, token: string) {
  const secret = await getTokenSecret(deps);
  return cached(deps, `token:${token}`, () => verifyToken(secret, token, deps.now()));
}

const CREDENTIAL_HINT: Record<Exclude<AuthMode, 'none'>, string> = {
  apiKey: 'an x-api-key header',
  admin: 'an x-api-key header',
  bearer: 'an Authorization: Bearer header (POST /v1/auth/token issues one)',
  apiKeyOrBearer: 'an x-api-key header or an Authorization: Bearer header',
};

/**
 * Resolves the caller for a route: 403 without a valid credential, 401 for an inactive account,
 * 403 for a non-admin on an admin route or an account without the route's feature.
 */
export async function authenticate(
  deps: AuthDeps,
  route: RouteDef,
  headers: Record<string, string | undefined>,
): Promise<Account | null> {
  if (route.auth === 'none') return null;
  const apiKey = route.auth === 'bearer' ? undefined : headers['x-api-key'];
  const bearer =
    route.auth === 'apiKey' || route.auth === 'admin' ? undefined : BEARER.exec(headers.authorization ?? '')?.[1];

  if (!apiKey && !bearer)
    throw forbidden(`Authentication required: send ${CREDENTIAL_HINT[route.auth]}`, { code: 'missing_credentials' });
  const account = apiKey ? await accountFromApiKey(deps, apiKey) : await accountFromBearer(deps, bearer!);
  if (!account) {
    throw apiKey
      ? forbidden('The API key is not valid', { code: 'invalid_api_key' })
      : forbidden('The bearer token is not valid or has expired', { code: 'invalid_token' });
  }
  if (account.status !== 'active') throw unauthorized('This account is inactive', { code: 'account_inactive' });
  if (route.auth === 'admin' && account.role !== 'admin')
    throw forbidden('This route is for administrators only', { code: 'admin_only' });
  if (route.capability && account.disabled_capabilities.includes(route.capability)) {
    throw forbidden(`The capability '${route.capability}' is switched off for this account`, {
      code: 'capability_disabled',
      details: { capability: route.capability },
    });
  }
  if (route.feature && !account.features.includes(route.feature)) {
    throw forbidden(`This route needs the account feature '${route.feature}'`, {
      code: 'feature_not_enabled',
      details: { feature: route.feature },
    });
  }
  return account;
}
