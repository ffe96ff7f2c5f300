/**
 * The HTTP API stage's throttle, requests a second and burst, across all routes and callers. Kept apart from the
 * construct so the capacity model (scripts/scale, docs/scale.md) reads the deployed default without loading the CDK.
 */
export const STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

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
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isSafeInteger(n) || n < 1 || (typeof value === 'string' && !/^\d+$/.test(value)))
      throw new Error(
        `-c ${stage}.${name} must be a whole number of requests a second, at least 1 (got ${String(value)})`,
      );
    return n;
  };
  return {
    rateLimit: setting('throttleRate', STAGE_THROTTLE.rateLimit),
    burstLimit: setting('throttleBurst', STAGE_THROTTLE.burstLimit),
  };
}
