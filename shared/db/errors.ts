import { unmarshall } from '@aws-sdk/util-dynamodb';

/** Whether a single-item write failed its condition. */
export const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * The item as it stood when a single-item write failed its condition (`ReturnValuesOnConditionCheckFailure: ALL_OLD`),
 * or undefined when there was none.
 */
export function itemAtConditionFailure(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return item ? unmarshall(item) : undefined;
}

/** Per-item cancellation reasons of a failed TransactWriteItems (`ConditionalCheckFailed`, `None`, …), or []. */
export function transactionFailures(error: unknown): (string | undefined)[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
}

/**
 * Awaits a conditional write; when its condition fails, the result of `onFailed` instead (which may throw the
 * AppError the failure means, or return a value such as `false`). Any other error propagates.
 */
export async function whenConditionFails<T, F>(write: Promise<T>, onFailed: () => F): Promise<T | F> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return onFailed();
    throw error;
  }
}

/** Awaits a conditional write whose failed condition means there is nothing left to do (done before, or moot). */
export const ignoreConditionFailure = async (write: Promise<unknown>): Promise<void> => {
  await whenConditionFails(write, () => undefined);
};
