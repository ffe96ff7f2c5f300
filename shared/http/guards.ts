// What the pipeline guards on a route, derived from its table entry, never declared per route: the request-rate
// class it counts against and whether it honours `Idempotency-Key`. The CDK app derives the requests-table grant
// from the same functions, so a route can never be guarded without the right to be.
import type { RateClass } from '../domain/accounts/plans.ts';
import type { RouteDef } from './route-def.ts';

/**
 * Routes that call a paid model count as `models`; every other non-GET route of an account as `writes`. Reads stay
 * behind the stage throttle; administrators' routes are not limited (operators must be able to act on an account).
 */
export function rateClassOf(route: RouteDef): RateClass | undefined {
  if (route.auth === 'none' || route.auth === 'admin') return undefined;
  if (route.access.visionModel || route.access.sendsTo?.includes('portraits')) return 'models';
  return route.method === 'GET' ? undefined : 'writes';
}

/**
 * POST and PATCH routes of an account replay a stored response for a repeated `Idempotency-Key`, except those whose
 * answer carries a secret shown once (never stored).
 */
export const isIdempotent = (route: RouteDef): boolean =>
  route.auth !== 'none' && (route.method === 'POST' || route.method === 'PATCH') && !route.oneTimeSecret;

/** The route's declared access plus the requests-table writes its guards make. */
export function accessWithGuards(route: RouteDef): RouteDef['access'] {
  const guarded = rateClassOf(route) !== undefined || isIdempotent(route);
  return guarded ? { ...route.access, requests: 'write' } : route.access;
}
