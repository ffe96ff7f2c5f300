// Request-rate plans: how many limited requests an account may make per fixed window, by kind of route. An account
// names its plan (`plan`, default `standard`; administrators change it); docs/decisions.md says why these numbers.

/** `writes`: every non-GET route of an account; `models`: routes that call a paid model (analyses, portraits). */
export const RATE_CLASSES = ['writes', 'models'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export const PLANS = {
  /** The real service's free plan allows 10 requests per minute. */
  free: { writes: { limit: 10, windowSeconds: 60 }, models: { limit: 2, windowSeconds: 60 } },
  standard: { writes: { limit: 600, windowSeconds: 60 }, models: { limit: 60, windowSeconds: 60 } },
  pro: { writes: { limit: 3000, windowSeconds: 60 }, models: { limit: 300, windowSeconds: 60 } },
} as const satisfies Record<string, Record<RateClass, RateLimit>>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];
export const DEFAULT_PLAN: PlanName = 'standard';

export const rateLimitOf = (plan: PlanName, rateClass: RateClass): RateLimit => PLANS[plan][rateClass];
