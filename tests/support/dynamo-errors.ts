// What DynamoDB throws when a condition fails, built as the SDK builds it, for tests to hand to mocked clients.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { keyOf, sameKey } from './dynamo-writes.ts';

/** A cancelled transaction: one reason code per item, in order (`None` for an item that passed). */
export const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/**
 * A single write whose condition failed; with `item`, the item as it stood, as DynamoDB returns it for
 * `ReturnValuesOnConditionCheckFailure: ALL_OLD` (marshalled).
 */
export const conditionalCheckFailed = (item?: Record<string, unknown>) =>
  Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), {
    ...(item && { Item: marshall(item, { removeUndefinedValues: true }) }),
  });

type Key = Record<string, unknown>;

/**
 * A mocked TransactWriteItems that cancels the transaction because the condition on the item with `key` failed,
 * wherever that item stands in it (for `ddb.on(TransactWriteCommand).callsFake(...)`).
 */
export const conditionFailsOn = (key: Key) => (input: TransactWriteCommandInput) => {
  throw cancelled(
    ...(input.TransactItems ?? []).map((entry) => (sameKey(keyOf(entry), key) ? 'ConditionalCheckFailed' : 'None')),
  );
};
