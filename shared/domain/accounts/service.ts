import { generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { forgetAccount } from '../../auth/authenticate.ts';
import * as accountsDb from './store.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { DEFAULT_MONTHLY_UPLOAD_QUOTA, type Account } from './account.ts';
import { DEFAULT_PLAN, type PlanName } from './plans.ts';

export interface NewAccountInput {
  name: string;
  email?: string | undefined;
  role?: Account['role'] | undefined;
  status?: Account['status'] | undefined;
  features?: string[] | undefined;
  quota?: number | undefined;
  plan?: PlanName | undefined;
  disabled_capabilities?: string[] | undefined;
}

export type AccountWithKey = Account & { api_key: string };

/** Creates an account and its API key; the plain key is returned here and never again. */
export async function createAccount(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'randomBytes'>,
  input: NewAccountInput,
): Promise<AccountWithKey> {
  const now = deps.now().toISOString();
  const account: Account = {
    id: deps.newId(),
    name: input.name,
    email: input.email ?? null,
    role: input.role ?? 'user',
    status: input.status ?? 'active',
    features: [...new Set(input.features ?? [])].sort(),
    quota: input.quota ?? DEFAULT_MONTHLY_UPLOAD_QUOTA,
    plan: input.plan ?? DEFAULT_PLAN,
    disabled_capabilities: [...new Set(input.disabled_capabilities ?? [])].sort(),
    created_at: now,
    updated_at: now,
  };
  const apiKey = generateApiKey(deps.randomBytes);
  await accountsDb.putNewAccount(deps, account, hashApiKey(apiKey));
  return { ...account, api_key: apiKey };
}

export async function updateAccount(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  accountId: string,
  changes: accountsDb.AccountChanges,
): Promise<Account> {
  const unique = (xs: string[] | undefined) => xs && [...new Set(xs)].sort();
  const normalised = {
    ...changes,
    features: unique(changes.features),
    disabled_capabilities: unique(changes.disabled_capabilities),
  };
  const account = await accountsDb.updateAccountFields(deps, accountId, normalised, deps.now().toISOString());
  if (!account) throw notFound(`account ${accountId} does not exist`);
  forgetAccount(accountId);
  return account;
}

/**
 * Gives the account a new API key; the current one keeps working for `graceSeconds` (0 to 24 h), then answers 401.
 * With `presentedKey` (the account rotating its own key) only the current key may rotate. This function's warm cache
 * forgets the account now; other warm functions within their 30-second authentication cache (never past a key's end).
 * The plain key is returned here and never again.
 */
export async function rotateApiKey(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'randomBytes'>,
  accountId: string,
  graceSeconds: number,
  presentedKey?: string,
): Promise<{ id: string; api_key: string; previous_key_expires_at: string; grace_period_seconds: number }> {
  const apiKey = generateApiKey(deps.randomBytes);
  const now = deps.now();
  const oldKeyEndsAt = new Date(now.getTime() + graceSeconds * 1000);
  const rotated = await accountsDb.rotateApiKeyHash(deps, accountId, {
    newKeyHash: hashApiKey(apiKey),
    now,
    oldKeyEndsAt,
    presentedKeyHash: presentedKey === undefined ? undefined : hashApiKey(presentedKey),
  });
  if (!rotated) throw notFound(`account ${accountId} does not exist`);
  forgetAccount(accountId);
  return {
    id: accountId,
    api_key: apiKey,
    previous_key_expires_at: oldKeyEndsAt.toISOString(),
    grace_period_seconds: graceSeconds,
  };
}

/** Administrators: every key of the account stops now (one in a grace period too); the new key is returned once. */
export async function revokeApiKeys(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'randomBytes'>,
  accountId: string,
): Promise<{ id: string; api_key: string; revoked_at: string }> {
  const { id, api_key, previous_key_expires_at } = await rotateApiKey(deps, accountId, 0);
  return { id, api_key, revoked_at: previous_key_expires_at };
}
