import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import type { Order } from '../schema/paging.ts';
import { shuffle } from '../schema/paging.ts';

export interface AccountItemPage<T> {
  partition: string;
  order: Order | undefined;
  page: number;
  limit: number;
  /** Applied by DynamoDB before items come back (cheap filters on stored attributes). */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> } | undefined;
  /** Applied here, on the decoded items. */
  keep?: ((item: T) => boolean) | undefined;
  decode: (item: Record<string, unknown>) => T;
}

/** The stored-attribute filter for a list narrowed to one `sub_id`, or none when the caller gave none. */
export function subIdFilter(subId: string | undefined): AccountItemPage<unknown>['filter'] {
  return subId === undefined
    ? undefined
    : { expression: '#sub = :sub', names: { '#sub': 'sub_id' }, values: { ':sub': subId } };
}

/**
 * A page of one account's items from its gsi1 partition, newest last: ASC/DESC read forward or backward and stop
 * once the page is full; RANDOM samples all matches. Cost grows with page depth, bounded by the account's own items.
 */
export async function pageAccountItems<T>(
  deps: Pick<Deps, 'ddb' | 'config' | 'random'>,
  request: AccountItemPage<T>,
): Promise<T[]> {
  const skip = request.order === 'RANDOM' ? 0 : request.page * request.limit;
  const wanted = request.order === 'RANDOM' ? Number.POSITIVE_INFINITY : skip + request.limit;
  const matches: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition',
        ExpressionAttributeValues: { ':partition': request.partition, ...request.filter?.values },
        ...(request.filter && {
          FilterExpression: request.filter.expression,
          ExpressionAttributeNames: request.filter.names,
        }),
        ScanIndexForward: request.order !== 'DESC',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const decoded = request.decode(item);
      if (!request.keep || request.keep(decoded)) matches.push(decoded);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && matches.length < wanted);
  if (request.order === 'RANDOM') return shuffle(matches, deps.random).slice(0, request.limit);
  return matches.slice(skip, skip + request.limit);
}
