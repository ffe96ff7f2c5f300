/**
 * The HTTP API stage's throttle, requests a second and burst, across all routes and callers. Kept apart from the
 * construct so the capacity model (scripts/scale, docs/scale.md) reads the deployed default without loading the CDK.
 */
import { z } from 'zod';

export const STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

/** A number from cdk.json, or digits from the command line (`-c` values are strings). */
const requestsPerSecond = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));

export interface StageThrottle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * `-c <stage>.throttleRate=<n>` and `-c <stage>.throttleBurst=<n>`: the operator raises a stage's throttle once the
 * account's API Gateway and Lambda quotas allow it (docs/scale.md). Either may be given alone; the other keeps its
 * default. Whole numbers of at least 1 only, since CloudFormation would take 0 and throttle every request.
 */
export function stageThrottleFrom(context: (key: string) => unknown, stage: string): StageThrottle {
  const setting = (name: string, fallback: number): number => {
    const value = context(`${stage}.${name}`);
    if (value === undefined) return fallback;
    const parsed = requestsPerSecond.safeParse(value);
    if (!parsed.success)
      throw new Error(
        `-c ${stage}.${name} must be a whole number of requests a second, at least 1 (got ${String(value)})`,
      );
    return parsed.data;
  };
  return {
    rateLimit: setting('throttleRate', STAGE_THROTTLE.rateLimit),
    burstLimit: setting('throttleBurst', STAGE_THROTTLE.burstLimit),
  };
}
