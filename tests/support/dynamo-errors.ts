// What DynamoDB throws when a condition fails, built as the SDK builds it, for tests to hand to mocked clients.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
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
