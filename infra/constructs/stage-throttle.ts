/**
 * The HTTP API stage's throttle, requests a second and burst, across all routes and callers. Kept apart from the
 * construct so the capacity model (scripts/scale, docs/scale.md) reads the deployed value without loading the CDK.
 */
export const STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;
