import {
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { transactionFailures } from './errors.ts';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];
/** Per item, why a cancelled transaction failed (`ConditionalCheckFailed`, `None`, …). */
export type CancellationReasons = (string | undefined)[];

/**
 * Writes all items or none. When DynamoDB cancels the transaction, `explain` turns the per-item reasons into the
 * error the caller should see (a 404, 409, 400 …); other failures, and reasons it does not explain, are rethrown.
 */
export async function transact(
  ddb: DynamoDBDocumentClient,
  items: TransactItems,
  explain: (reasons: CancellationReasons) => Error | undefined | Promise<Error | undefined> = () => undefined,
): Promise<void> {
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const reasons = transactionFailures(error);
    const explained = reasons.length > 0 ? await explain(reasons) : undefined;
    throw explained ?? error;
  }
}
