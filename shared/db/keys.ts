// Key builders: the only place that spells entity prefixes. See docs/ARCHITECTURE.md#access-patterns.

export const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });

/** All accounts, newest last: the operator's list (gsi1). */
export const accountListKey = (createdAt: string, accountId: string) => ({
  gsi1pk: 'ACCOUNTS',
  gsi1sk: `${createdAt}#${accountId}`,
});
export const ACCOUNT_LIST_PARTITION = 'ACCOUNTS';

export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

/** Sentinel item the readiness probe reads. */
export const healthKey = () => ({ pk: 'HEALTH', sk: 'HEALTH' });
