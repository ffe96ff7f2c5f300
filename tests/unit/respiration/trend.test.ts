import { describe, expect, it } from 'vitest';
import {
  baselineOf,
  brokenRules,
  defaultAlertRule,
  judgeRate,
  lowMedian,
  type RatePoint,
  trendOf,
} from '../../../shared/domain/respiration/trend.ts';

/** Completed measurements, newest first, one a day back from 28 November. */
const newestFirst = (...rates: number[]): RatePoint[] =>
  rates.map((breaths_per_minute, i) => ({
    id: `rr-${rates.length - i}`,
    breaths_per_minute,
    created_at: new Date(Date.UTC(2026, 10, 28 - i, 6)).toISOString(),
  }));
const dogRule = defaultAlertRule({ low: 10, high: 30 });

describe("a pet's own baseline", () => {
  it('is the low median: one of the measured rates, the lower middle one of an even count', () => {
    expect(lowMedian([21, 20, 20])).toBe(20);
    expect(lowMedian([20, 21, 20, 34])).toBe(20);
    expect(lowMedian([18, 24])).toBe(18);
    expect(lowMedian([30])).toBe(30);
    expect(() => lowMedian([])).toThrow(RangeError);
  });

  it('needs three completed measurements and takes at most the seven newest', () => {
    expect(baselineOf(newestFirst(20, 21))).toEqual({
      breaths_per_minute: null,
      measurements: 2,
      reason: 'needs 3 completed measurements before the latest, has 2',
    });
    expect(baselineOf(newestFirst(20, 21, 20))).toEqual({ breaths_per_minute: 20, measurements: 3, reason: null });
    // The eighth and older (40s) are past the window: the median of 7 × 16 and 17 is 16.
    expect(baselineOf(newestFirst(16, 17, 16, 17, 16, 17, 16, 40, 40, 40, 40, 40))).toMatchObject({
      breaths_per_minute: 16,
      measurements: 7,
    });
  });
});

describe('the alert rules', () => {
  it('default to the top of the species range and a 25 % rise', () => {
    expect(dogRule).toEqual({ threshold_bpm: 30, rise_percent: 25 });
    expect(defaultAlertRule({ low: 20, high: 30 })).toEqual({ threshold_bpm: 30, rise_percent: 25 });
  });

  it('fire strictly above the threshold, and strictly above baseline × (1 + rise)', () => {
    const base20 = baselineOf(newestFirst(20, 21, 20));
    expect(brokenRules(30, base20, { threshold_bpm: 30, rise_percent: 100 })).toEqual([]);
    expect(brokenRules(30.1, base20, { threshold_bpm: 30, rise_percent: 100 })).toEqual(['threshold']);
    expect(brokenRules(25, base20, dogRule)).toEqual([]);
    expect(brokenRules(26, base20, dogRule)).toEqual(['rise']);
    expect(brokenRules(34, base20, dogRule)).toEqual(['threshold', 'rise']);
    // No baseline yet: only the threshold can fire.
    expect(brokenRules(29, baselineOf(newestFirst(10, 10)), dogRule)).toEqual([]);
    expect(brokenRules(31, baselineOf(newestFirst(10, 10)), dogRule)).toEqual(['threshold']);
  });

  it('judge the issue sequence 20, 21, 20, 34, then 26: one threshold alert, then one rise alert', () => {
    const rule = { threshold_bpm: 30, rise_percent: 100 };
    expect(judgeRate(20, [], rule)).toBeNull();
    expect(judgeRate(21, newestFirst(20), rule)).toBeNull();
    expect(judgeRate(20, newestFirst(21, 20), rule)).toBeNull();
    expect(judgeRate(34, newestFirst(20, 21, 20), rule)).toEqual({
      rules: ['threshold'],
      rule,
      baseline_bpm: 20,
      baseline_measurements: 3,
      change_percent: 70,
    });
    expect(judgeRate(26, newestFirst(34, 20, 21, 20), { threshold_bpm: 30, rise_percent: 25 })).toEqual({
      rules: ['rise'],
      rule: { threshold_bpm: 30, rise_percent: 25 },
      baseline_bpm: 20,
      baseline_measurements: 4,
      change_percent: 30,
    });
  });
});

describe('the trend', () => {
  it('compares the latest rate with the baseline of the ones before it, over the days they cover', () => {
    expect(trendOf(newestFirst(34, 20, 21, 20))).toEqual({
      latest: { id: 'rr-4', breaths_per_minute: 34, created_at: '2026-11-28T06:00:00.000Z' },
      baseline: { breaths_per_minute: 20, measurements: 3, reason: null },
      change: { breaths_per_minute: 14, percent: 70 },
      days_covered: 3,
    });
  });

  it('covers the latest and the seven before it at most', () => {
    expect(trendOf(newestFirst(20, 20, 20, 20, 20, 20, 20, 20, 20, 20)).days_covered).toBe(7);
  });

  it('says why there is no baseline yet, and that there is nothing at all for a pet never measured', () => {
    expect(trendOf(newestFirst(22, 20))).toEqual({
      latest: { id: 'rr-2', breaths_per_minute: 22, created_at: '2026-11-28T06:00:00.000Z' },
      baseline: {
        breaths_per_minute: null,
        measurements: 1,
        reason: 'needs 3 completed measurements before the latest, has 1',
      },
      change: null,
      days_covered: 1,
    });
    expect(trendOf([])).toEqual({
      latest: null,
      baseline: { breaths_per_minute: null, measurements: 0, reason: 'no completed measurement yet' },
      change: null,
      days_covered: 0,
    });
  });
});
