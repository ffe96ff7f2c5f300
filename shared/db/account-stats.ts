import { accountStatsKey } from './keys.ts';

export type AccountStat = 'votes' | 'favourites' | 'images' | 'pets' | 'webhooks';

/** The transaction item that moves one of an account's counts, written with the change it counts. */
export const statChange = (tableName: string, accountId: string, stat: AccountStat, delta: 1 | -1) => ({
  Update: {
    TableName: tableName,
    Key: accountStatsKey(accountId),
    UpdateExpression: 'ADD #stat :delta',
    ExpressionAttributeNames: { '#stat': stat },
    ExpressionAttributeValues: { ':delta': delta },
  },
});
