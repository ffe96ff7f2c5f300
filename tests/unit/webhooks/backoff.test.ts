import { describe, expect, it } from 'vitest';
import {
  MAX_ATTEMPTS,
  isFinalAttempt,
  retryDelaySeconds,
  sqsRetryDelaySeconds,
} from '../../../shared/webhooks/backoff.ts';

const noJitter = (): number => 0;
const maxJitter = (): number => 0.999_999;

describe('retry schedule', () => {
  it('allows three attempts in total, as the spec says', () => {
    expect(MAX_ATTEMPTS).toBe(3);
  });

  it('treats only the third attempt as final', () => {
    expect([1, 2, 3, 4].map(isFinalAttempt)).toEqual([false, false, true, true]);
  });

  it('waits one second after the first attempt when the jitter is zero', () => {
    expect(retryDelaySeconds(1, noJitter)).toBe(1);
  });

  it('waits two seconds after the second attempt when the jitter is zero', () => {
    expect(retryDelaySeconds(2, noJitter)).toBe(2);
  });

  it('only lengthens the wait, by less than 25 %', () => {
    expect(retryDelaySeconds(1, maxJitter)).toBeGreaterThan(1.24);
    expect(retryDelaySeconds(1, maxJitter)).toBeLessThan(1.25);
    expect(retryDelaySeconds(2, maxJitter)).toBeLessThan(2.5);
  });

  it('scales the jitter with the injected random number', () => {
    expect(retryDelaySeconds(1, () => 0.5)).toBeCloseTo(1.125);
    expect(retryDelaySeconds(2, () => 0.5)).toBeCloseTo(2.25);
  });

  it('stays within bounds with the real random source', () => {
    for (let i = 0; i < 100; i += 1) {
      const delay = retryDelaySeconds(2);
      expect(delay).toBeGreaterThanOrEqual(2);
      expect(delay).toBeLessThan(2.5);
    }
  });

  it.each([0, 3, 4, 1.5, -1, Number.NaN])('has no retry after attempt %s', (attempt) => {
    expect(() => retryDelaySeconds(attempt, noJitter)).toThrow(RangeError);
  });
});

describe('SQS retry delay', () => {
  it('gives whole seconds of 1 and then 2 across the whole jitter range', () => {
    for (const random of [noJitter, () => 0.5, maxJitter]) {
      expect(sqsRetryDelaySeconds(1, random)).toBe(1);
      expect(sqsRetryDelaySeconds(2, random)).toBe(2);
    }
  });

  it('has no retry after the final attempt either', () => {
    expect(() => sqsRetryDelaySeconds(MAX_ATTEMPTS, noJitter)).toThrow(RangeError);
  });
});
