import {
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { AppError } from '../errors.ts';
import { transactionFailures } from './errors.ts';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];
/** Per item, why a cancelled transaction failed (`ConditionalCheckFailed`, `None`, …). */
export type CancellationReasons = (string | undefined)[];

/** Sends of one transaction while others keep touching the same items, before the caller is told to retry. */
export const CONFLICT_ATTEMPTS = 4;

/** Every refusal was another transaction in the way (no condition failed): the same request can simply go again. */
const onlyConflicts = (reasons: CancellationReasons) =>
  reasons.includes('TransactionConflict') && reasons.every((r) => r === 'TransactionConflict' || r === 'None');

const busy = () =>
  new AppError(503, 'Other requests are changing the same records right now; retry shortly', {
    code: 'busy',
    headers: { 'retry-after': '1' },
  });

/**
 * Writes all items or none. When DynamoDB cancels the transaction, `explain` turns the per-item reasons into the
 * error the caller should see (a 404, 409, 400 …). A transaction cancelled only by concurrent transactions wrote
 * nothing, so it is sent again (a few times, with a short random pause), then answered 503 `busy` with Retry-After
 * rather than a 500. Other failures, and reasons `explain` does not explain, are rethrown.
 */
export async function transact(
  ddb: DynamoDBDocumentClient,
  items: TransactItems,
  explain: (reasons: CancellationReasons) => Error | undefined | Promise<Error | undefined> = () => undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = transactionFailures(error);
      const explained = reasons.length > 0 ? await explain(reasons) : undefined;
      if (explained) throw explained;
      if (!onlyConflicts(reasons)) throw error;
      if (attempt === CONFLICT_ATTEMPTS) throw busy();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
    }
  }
}
