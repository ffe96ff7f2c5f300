import { batchGetAll } from './batch.ts';
import type { Deps } from '../deps.ts';
import { queryAll } from './query-all.ts';

/** How a queue's markers lead to the items they mark (reviews to decide, public requests to approve). */
export interface PendingQueue<T extends { status: string }> {
  /** The gsi1 partition every pending marker of the queue sits in, ordered by request time. */
  partition: string;
  /** The key of the item a marker points at. */
  itemKeyOf: (marker: Record<string, unknown>) => Record<string, string>;
  /** The marker attribute that equals the item's `id`. */
  idAttribute: string;
  asItem: (item: Record<string, unknown>) => T;
}

/**
 * The first `count` pending items of a queue, oldest first: the markers from gsi1 (reading no further than needed),
 * then their items in one batch read. An item decided between the two reads is left out.
 */
export async function queryPendingQueue<T extends { status: string }>(
  deps: Pick<Deps, 'ddb' | 'config'>,
  queue: PendingQueue<T>,
  count: number,
): Promise<T[]> {
  const markers = await queryAll(
    deps.ddb,
    {
      TableName: deps.config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pending',
      ExpressionAttributeValues: { ':pending': queue.partition },
      Limit: count,
    },
    { atMost: count },
  );
  const items = await batchGetAll(deps.ddb, deps.config.tableName, markers.map(queue.itemKeyOf));
  const byId = new Map(items.map((item) => [item.id, queue.asItem(item)]));
  return markers.flatMap((marker) => {
    const item = byId.get(marker[queue.idAttribute]);
    return item?.status === 'pending' ? [item] : [];
  });
}
