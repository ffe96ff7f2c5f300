import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getAccount } from './store.ts';
import { accountStatsKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import type { Account } from './account.ts';
import { quotaOf } from './quota.ts';

export const STAT_NAMES = ['votes', 'favourites', 'images', 'pets', 'webhooks'] as const;

export async function requireAccount(deps: Pick<Deps, 'ddb' | 'config'>, accountId: string): Promise<Account> {
  const account = await getAccount(deps, accountId);
  if (!account) throw notFound(`Account ${accountId} does not exist`);
  return account;
}

/**
 * What an administrator sees of an account: identity, flags, this month's quota and the live counts of what it owns.
 * The counts come from one stats item kept by the same transactions that write votes, favourites, images and webhooks.
 */
export async function accountOverview(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, accountId: string) {
  const account = await requireAccount(deps, accountId);
  const [{ Item: stats }, quota] = await Promise.all([
    deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: accountStatsKey(accountId) })),
    quotaOf(deps, account),
  ]);
  return {
    account: {
      id: account.id,
      name: account.name,
      email: account.email,
      role: account.role,
      status: account.status,
      created_at: account.created_at,
    },
    features: account.features,
    disabled_capabilities: account.disabled_capabilities,
    quota,
    counts: Object.fromEntries(STAT_NAMES.map((name) => [name, Number(stats?.[name] ?? 0)])) as Record<
      (typeof STAT_NAMES)[number],
      number
    >,
  };
}
