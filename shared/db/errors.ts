/** Whether a single-item write failed its condition. */
export const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Per-item cancellation reasons of a failed TransactWriteItems (`ConditionalCheckFailed`, `None`, …), or []. */
export function transactionFailures(error: unknown): (string | undefined)[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
}
