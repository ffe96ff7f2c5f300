import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { uploadQuotaKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import type { Account } from './account.ts';

/** Quota periods are calendar months in UTC. */
export const quotaMonth = (date: Date) => date.toISOString().slice(0, 7);

const nextMonthStart = (date: Date) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString();

export async function uploadsThisMonth(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, accountId: string): Promise<number> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: uploadQuotaKey(accountId, quotaMonth(deps.now())) }),
  );
  return Number(Item?.used ?? 0);
}

/** The spec's quota object, plus the period it covers and when it resets. */
export async function quotaOf(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, account: Account) {
  const usage = await uploadsThisMonth(deps, account.id);
  const now = deps.now();
  return {
    quota: account.quota,
    usage,
    remaining: Math.max(0, account.quota - usage),
    period: quotaMonth(now),
    resets_at: nextMonthStart(now),
  };
}
