// A pet's own breathing baseline, its trend and the alert rules judged against it: pure functions over completed
// measurements, newest first. The numbers and their reasons: docs/respiratory-rate.md#trend-and-alerts.
import * as z from 'zod/mini';
import type { Species } from '../reference/species.ts';
import { type Baseline as RestingRange, baselineFor } from './baselines.ts';

/** The baseline is the median of at most this many completed measurements before the one judged… */
export const BASELINE_WINDOW = 7;
/** …and needs at least this many: fewer cannot tell the pet's usual rate from one odd clip. */
export const BASELINE_MINIMUM = 3;
/** The rise rule's default, in percent over the baseline. */
export const DEFAULT_RISE_PERCENT = 25;

/** Bounds of a rule an owner sets: the measurable band's top (90/min), and rises the measurement's ±1.5 cannot fake. */
export const THRESHOLD_BPM = { min: 10, max: 90 } as const;
export const RISE_PERCENT = { min: 10, max: 200 } as const;

export const ALERT_RULES = ['threshold', 'rise'] as const;
export type AlertRuleName = (typeof ALERT_RULES)[number];

export const alertRuleSchema = z.object({ threshold_bpm: z.number(), rise_percent: z.number() });
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** What a completed measurement that raised an alert keeps: the rules that fired and what they were judged by. */
export const alertSchema = z.object({
  rules: z.array(z.enum(ALERT_RULES)),
  rule: alertRuleSchema,
  baseline_bpm: z.nullable(z.number()),
  baseline_measurements: z.number(),
  change_percent: z.nullable(z.number()),
});
export type Alert = z.infer<typeof alertSchema>;

/** What the rules need of a completed measurement. */
export interface RatePoint {
  id: string;
  breaths_per_minute: number;
  created_at: string;
}

export interface PetBaseline {
  breaths_per_minute: number | null;
  /** How many measurements it is the median of (or, when null, how many there were). */
  measurements: number;
  /** Why there is none; null when there is one. */
  reason: string | null;
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** Species default: alert above the top of the resting range, or a quarter over the pet's own baseline. */
export const defaultAlertRule = (range: RestingRange): AlertRule => ({
  threshold_bpm: range.high,
  rise_percent: DEFAULT_RISE_PERCENT,
});

/** The rule a pet's measurements are judged by: the owner's, else its species default. */
export const alertRuleOf = (pet: { species_id: Species; respiratory_alert: AlertRule | null }): AlertRule =>
  pet.respiratory_alert ?? defaultAlertRule(baselineFor(pet));

/**
 * The low median: the middle value, or the lower of the two middle ones. Always one of the pet's own measured rates,
 * and one high reading among an even number does not lift the level a rise is judged against.
 */
export function lowMedian(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('no values to take the median of');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The pet's baseline from the completed measurements before the one judged, newest first. */
export function baselineOf(earlier: readonly RatePoint[]): PetBaseline {
  const window = earlier.slice(0, BASELINE_WINDOW);
  if (window.length < BASELINE_MINIMUM)
    return {
      breaths_per_minute: null,
      measurements: window.length,
      reason: `needs ${BASELINE_MINIMUM} completed measurements before the latest, has ${window.length}`,
    };
  return {
    breaths_per_minute: lowMedian(window.map((p) => p.breaths_per_minute)),
    measurements: window.length,
    reason: null,
  };
}

const percentOver = (rate: number, baseline: number) => oneDecimal(((rate - baseline) / baseline) * 100);

/** The rules a rate breaks (strictly above), the absolute threshold first; the rise needs a baseline. */
export function brokenRules(rate: number, baseline: PetBaseline, rule: AlertRule): AlertRuleName[] {
  const base = baseline.breaths_per_minute;
  return [
    ...(rate > rule.threshold_bpm ? (['threshold'] as const) : []),
    ...(base !== null && rate > base * (1 + rule.rise_percent / 100) ? (['rise'] as const) : []),
  ];
}

/** The alert a newly completed rate raises against the measurements before it, or null when no rule fires. */
export function judgeRate(rate: number, earlier: readonly RatePoint[], rule: AlertRule): Alert | null {
  const baseline = baselineOf(earlier);
  const rules = brokenRules(rate, baseline, rule);
  if (rules.length === 0) return null;
  return {
    rules,
    rule,
    baseline_bpm: baseline.breaths_per_minute,
    baseline_measurements: baseline.measurements,
    change_percent: baseline.breaths_per_minute === null ? null : percentOver(rate, baseline.breaths_per_minute),
  };
}

const DAY_MS = 86_400_000;

/**
 * The trend of the pet's newest completed measurements (newest first, at most BASELINE_WINDOW + 1): the latest rate
 * against the baseline of the ones before it, the same baseline the alert rules judged it by.
 */
export function trendOf(newestFirst: readonly RatePoint[]) {
  const [latest, ...earlier] = newestFirst;
  const baseline = baselineOf(earlier);
  if (!latest)
    return {
      latest: null,
      baseline: { ...baseline, reason: 'no completed measurement yet' },
      change: null,
      days_covered: 0,
    };
  const base = baseline.breaths_per_minute;
  const oldest = newestFirst[Math.min(newestFirst.length - 1, BASELINE_WINDOW)]!;
  return {
    latest: { id: latest.id, breaths_per_minute: latest.breaths_per_minute, created_at: latest.created_at },
    baseline,
    change:
      base === null
        ? null
        : {
            breaths_per_minute: oneDecimal(latest.breaths_per_minute - base),
            percent: percentOver(latest.breaths_per_minute, base),
          },
    days_covered: oneDecimal((Date.parse(latest.created_at) - Date.parse(oldest.created_at)) / DAY_MS),
  };
}
