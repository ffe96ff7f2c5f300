// Media status changes as conditional updates (`status = from`): of two workers racing on the same item exactly one
// moves it, and a redelivered message changes nothing twice.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { whenConditionFails } from '../../db/errors.ts';
import { setFields } from '../../db/update.ts';
import type { Deps } from '../../deps.ts';
import { isAllowedTransition, type MediaKind, type MediaStatus } from './lifecycle.ts';

/**
 * Moves one item from `from` to `to` (with `fields` set alongside), once: false when the item was no longer at
 * `from` (another worker got there first, or it never was). A change the table does not allow is a programming error.
 */
export async function transition<K extends MediaKind>(
  deps: Pick<Deps, 'ddb' | 'config'>,
  kind: K,
  key: Record<string, string>,
  from: MediaStatus<K>,
  to: MediaStatus<K>,
  fields: Record<string, unknown> = {},
): Promise<boolean> {
  if (!isAllowedTransition(kind, from, to)) throw new Error(`${kind}: ${from} → ${to} is not an allowed transition`);
  const update = setFields({ ...fields, status: to });
  const moved = deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: key,
      ...update,
      ConditionExpression: '#current = :from',
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#current': 'status' },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':from': from },
    }),
  );
  return whenConditionFails(
    moved.then(() => true),
    () => false,
  );
}
