import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { uploadQuotaKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import type { Account } from './account.ts';

/** Quota periods are calendar months in UTC. */
export const quotaMonth = (date: Date) => date.toISOString().slice(0, 7);

/** The transaction item that counts `count` uploads against this month's quota, all or none. */
export function quotaUse(deps: Pick<Deps, 'config' | 'now'>, account: Pick<Account, 'id' | 'quota'>, count: number) {
  return {
    Update: {
      TableName: deps.config.tableName,
      Key: uploadQuotaKey(account.id, quotaMonth(deps.now())),
      UpdateExpression: 'ADD used :n',
      ConditionExpression: 'attribute_not_exists(used) OR used <= :max',
      ExpressionAttributeValues: { ':n': count, ':max': account.quota - count },
    },
  };
}

/** The transaction item that gives back `count` uploads recorded at `recordedAt` to that month (never below 0). */
export function quotaReturn(tableName: string, accountId: string, recordedAt: string, count = 1) {
  return {
    Update: {
      TableName: tableName,
      Key: uploadQuotaKey(accountId, quotaMonth(new Date(recordedAt))),
      UpdateExpression: 'ADD used :minus',
      ConditionExpression: 'used >= :count',
      ExpressionAttributeValues: { ':minus': -count, ':count': count },
    },
  };
}

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
