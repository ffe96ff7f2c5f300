import { createHash } from 'node:crypto';
import type { AuthMode, RouteDef } from '../http/route-def.ts';
import { getAccount, getApiKey } from '../domain/accounts/store.ts';
import type { Deps } from '../deps.ts';
import type { Account } from '../domain/accounts/account.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { hashApiKey } from './api-keys.ts';
import { tokenOf, tokenVerifier } from './bearer.ts';
import { CredentialCache } from './credential-cache.ts';

type AuthDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/** Verified credentials a warm container remembers: about 2 KB each, so at most ~2 MB of a 512 MB function. */
export const AUTH_CACHE_MAX_ENTRIES = 1000;

// Warm containers remember verified credentials for up to AUTH_CACHE_TTL_SECONDS (never past a token's own expiry),
// as an API Gateway authorizer cache would; an account change made through this container is forgotten at once.
// Credentials that did not verify are never stored: junk cannot grow the cache.
const cache = new CredentialCache<Account>(AUTH_CACHE_MAX_ENTRIES);

export function forgetAccount(accountId: string): void {
  cache.deleteWhere((account) => account.id === accountId);
}

export function clearAuthCache(): void {
  cache.clear();
}

/** How many verified credentials this container remembers now. */
export function authCacheSize(): number {
  return cache.size;
}

interface Resolved {
  accountId: string;
  /** When the credential itself stops being valid (a token's `exp`); API keys do not expire. */
  expiresAtMs?: number;
}

async function cached(
  deps: AuthDeps,
  key: string,
  resolve: () => Promise<Resolved | undefined>,
): Promise<Account | undefined> {
  const nowMs = deps.now().getTime();
  const hit = cache.get(key, nowMs);
  if (hit) return hit;
  const resolved = await resolve();
  const account = resolved ? await getAccount(deps, resolved.accountId) : undefined;
  if (!resolved || !account) return undefined;
  const until = Math.min(
    nowMs + deps.config.authCacheTtlSeconds * 1000,
    resolved.expiresAtMs ?? Number.POSITIVE_INFINITY,
  );
  if (until > nowMs) cache.set(key, account, until);
  return account;
}

async function accountFromApiKey(deps: AuthDeps, apiKey: string) {
  const hash = hashApiKey(apiKey);
  return cached(deps, `key:${hash}`, async () => {
    const key = await getApiKey(deps, hash);
    if (!key) return undefined;
    // A rotated or revoked key: valid until its end (the cache never keeps it longer), then 401 saying so.
    const endsAtMs = key.expiresAt === undefined ? undefined : Date.parse(key.expiresAt);
    if (endsAtMs !== undefined && endsAtMs <= deps.now().getTime())
      throw unauthorized(`This API key was rotated or revoked and stopped working at ${key.expiresAt}`, {
        code: 'api_key_expired',
      });
    return { accountId: key.accountId, expiresAtMs: endsAtMs };
  });
}

async function accountFromBearer(deps: AuthDeps, token: string) {
  const verify = await tokenVerifier(deps);
  // Keyed by the token's digest, so an entry costs the same whatever the token's length.
  return cached(deps, `token:${createHash('sha256').update(token).digest('base64url')}`, async () => verify(token));
}

const CREDENTIAL_HINT: Record<Exclude<AuthMode, 'none'>, string> = {
  apiKey: 'an x-api-key header',
  admin: 'an x-api-key header',
  vet: 'an x-api-key header',
  bearer: 'an Authorization: Bearer header (POST /v1/auth/token issues one)',
  apiKeyOrBearer: 'an x-api-key header or an Authorization: Bearer header',
};

/** Whether a route takes bearer tokens (`Authorization: Bearer`, POST /auth/token issues them): by its auth mode. */
export const acceptsBearer = (route: RouteDef) => route.auth === 'bearer' || route.auth === 'apiKeyOrBearer';

/**
 * Resolves the caller for a route: 403 without a valid credential, 401 for an inactive account,
 * 403 for a non-admin on an admin route, a non-vet on a vet route or an account without the route's feature.
 */
export async function authenticate(
  deps: AuthDeps,
  route: RouteDef,
  headers: Record<string, string | undefined>,
): Promise<Account | null> {
  if (route.auth === 'none') return null;
  const apiKey = route.auth === 'bearer' ? undefined : headers['x-api-key'];
  const bearer = acceptsBearer(route) ? tokenOf(headers.authorization) : undefined;

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
  if (route.auth === 'vet' && account.role !== 'vet' && account.role !== 'admin')
    throw forbidden('This route is for vets (and administrators) only', { code: 'vet_only' });
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
