import { hashApiKey } from '../../shared/auth/api-keys.ts';
import { getAccountIdByKeyHash, putNewAccount } from '../../shared/domain/accounts/store.ts';
import { getDeps } from '../../shared/deps.ts';
import { DEFAULT_PLAN } from '../../shared/domain/accounts/plans.ts';
import { DEFAULT_MONTHLY_UPLOAD_QUOTA, KNOWN_FEATURES } from '../../shared/domain/accounts/account.ts';

/** Local mode only: makes ADMIN_API_KEY the key of an active admin account with every feature. */
export async function seedAdmin(adminApiKey: string | undefined): Promise<string | undefined> {
  if (!adminApiKey) return undefined;
  const deps = getDeps();
  const hash = hashApiKey(adminApiKey);
  if (await getAccountIdByKeyHash(deps, hash)) return adminApiKey;
  const now = deps.now().toISOString();
  await putNewAccount(
    deps,
    {
      // Derived from the key, so a persisted table can hold admins seeded with different keys.
      id: `local-admin-${hash.slice(0, 12)}`,
      name: 'Local administrator',
      email: null,
      role: 'admin',
      status: 'active',
      features: [...KNOWN_FEATURES],
      quota: DEFAULT_MONTHLY_UPLOAD_QUOTA,
      plan: DEFAULT_PLAN,
      disabled_capabilities: [],
      created_at: now,
      updated_at: now,
    },
    hash,
  );
  return adminApiKey;
}
