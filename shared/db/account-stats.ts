import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { accountStatsKey } from './keys.ts';

export type AccountStat = 'votes' | 'favourites' | 'images' | 'pets' | 'webhooks';

/**
 * The transaction item that moves one of an account's counts, written with the change it counts. With `atMost`, an
 * increase is refused (ConditionalCheckFailed) when the count has reached it: a per-account limit, exact under races.
 */
export const statChange = (
  tableName: string,
  accountId: string,
  stat: AccountStat,
  delta: 1 | -1,
  options: { atMost?: number } = {},
) => ({
  Update: {
    TableName: tableName,
    Key: accountStatsKey(accountId),
    UpdateExpression: 'ADD #stat :delta',
    ExpressionAttributeNames: { '#stat': stat },
    ExpressionAttributeValues: { ':delta': delta, ...(options.atMost !== undefined && { ':max': options.atMost }) },
    ...(options.atMost !== undefined && { ConditionExpression: 'attribute_not_exists(#stat) OR #stat < :max' }),
  },
});

/** One count as the transactions left it (strongly consistent: a count read right after a write includes it). */
export async function readAccountStat(
  deps: Pick<Deps, 'ddb' | 'config'>,
  accountId: string,
  stat: AccountStat,
): Promise<number> {
  const { Item } = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: accountStatsKey(accountId),
      ProjectionExpression: '#stat',
      ExpressionAttributeNames: { '#stat': stat },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.[stat] ?? 0);
}
