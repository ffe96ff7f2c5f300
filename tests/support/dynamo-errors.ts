// What DynamoDB throws when a condition fails, built as the SDK builds it, and what a transaction asked for, for tests
// of handlers over mocked clients.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/** A cancelled transaction: one reason code per item, in order (`None` for an item that passed). */
export const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A transaction of `items` items cancelled because the condition of the item at `failedAt` failed. */
export const conditionFailedAt = (failedAt: number, items: number) =>
  cancelled(...Array.from({ length: items }, (_, i) => (i === failedAt ? 'ConditionalCheckFailed' : 'None')));

/**
 * A single write whose condition failed; with `item`, the item as it stood, as DynamoDB returns it for
 * `ReturnValuesOnConditionCheckFailure: ALL_OLD` (marshalled).
 */
export const conditionalCheckFailed = (item?: Record<string, unknown>) =>
  Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), {
    ...(item && { Item: marshall(item, { removeUndefinedValues: true }) }),
  });

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Key = Record<string, unknown>;

/** The item a transaction entry writes or checks, by its key: a Put's item carries it, the others name it. */
const keyOf = (entry: TransactItem): Key => {
  const { pk, sk } = entry.Put?.Item ?? entry.Update?.Key ?? entry.Delete?.Key ?? entry.ConditionCheck?.Key ?? {};
  return { pk, sk };
};

/**
 * A mocked TransactWriteItems that cancels the transaction because the condition on the item with `key` failed,
 * wherever that item stands in it (for `ddb.on(TransactWriteCommand).callsFake(...)`).
 */
export const conditionFailsOn = (key: Key) => (input: TransactWriteCommandInput) => {
  throw cancelled(
    ...(input.TransactItems ?? []).map((entry) =>
      keyOf(entry).pk === key.pk && keyOf(entry).sk === key.sk ? 'ConditionalCheckFailed' : 'None',
    ),
  );
};

/** What a transaction does to each item, by key and in no particular order: put (with the item), update or delete. */
export const transactionWrites = (input: TransactWriteCommandInput) =>
  (input.TransactItems ?? []).map((entry) => ({
    key: keyOf(entry),
    ...(entry.Put && { put: entry.Put.Item }),
    ...(entry.Update && { update: true }),
    ...(entry.Delete && { delete: true }),
  }));
