/**
 * Retry schedule from the spec: 3 attempts in total, exponential backoff starting at one second,
 * so the waits are ~1 s after attempt 1 and ~2 s after attempt 2. Attempts are numbered from 1.
 */

export const MAX_ATTEMPTS = 3;
export const BASE_DELAY_SECONDS = 1;
/** Jitter only ever lengthens a wait, and by less than this share, so "starts at 1 s" still holds. */
export const MAX_JITTER_FRACTION = 0.25;

/** A random source with Math.random's contract: a number in [0, 1). */
export type RandomSource = () => number;

export function isFinalAttempt(attempt: number): boolean {
  return attempt >= MAX_ATTEMPTS;
}

/**
 * Fractional seconds to wait before the next attempt, in [base, base × 1.25) where
 * base = 1 s × 2^(attempt − 1). Suits an in-process timer (multiply by 1000 for setTimeout).
 * Throws when there is no next attempt: guard with `isFinalAttempt` first.
 */
export function retryDelaySeconds(attemptJustFailed: number, random: RandomSource = Math.random): number {
  if (!Number.isInteger(attemptJustFailed) || attemptJustFailed < 1 || isFinalAttempt(attemptJustFailed)) {
    throw new RangeError(`No retry follows attempt ${attemptJustFailed} of ${MAX_ATTEMPTS}`);
  }
  const base = BASE_DELAY_SECONDS * 2 ** (attemptJustFailed - 1);
  return base * (1 + MAX_JITTER_FRACTION * random());
}

/**
 * Whole seconds for SQS `DelaySeconds` / `ChangeMessageVisibility`, which accept integers only.
 * Rounding keeps the result within the same +25 % bound. At the spec's 1 s and 2 s waits this
 * rounds the jitter away entirely (1 and 2); only a longer schedule would keep some of it.
 */
export function sqsRetryDelaySeconds(attemptJustFailed: number, random: RandomSource = Math.random): number {
  return Math.round(retryDelaySeconds(attemptJustFailed, random));
}
