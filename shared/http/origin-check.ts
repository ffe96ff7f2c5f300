// A stage deployed with a firewall (-c waf=true) answers only requests that came through its CloudFront distribution,
// which adds ORIGIN_HEADER with the stage's origin secret; a request sent straight to the API Gateway endpoint, past
// the web ACL, is refused. Without ORIGIN_SECRET_ARN (the local stack, stages without a firewall) nothing is checked.
import { timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { cachedSecret } from '../aws/secrets.ts';
import type { Deps } from '../deps.ts';
import { forbidden } from '../errors.ts';

/** The header CloudFront adds to every request it forwards (infra/constructs/api-firewall.ts). */
export const ORIGIN_HEADER = 'x-origin-verify';

/**
 * The secret's JSON: `current` is what CloudFront sends; `previous`, during a rotation, what it sent before, accepted
 * until the distribution sends the new value (docs/operations.md#firewall-and-origin-secret).
 */
export const OriginSecret = z.object({
  current: z.string().check(z.minLength(32)),
  previous: z.optional(z.string().check(z.minLength(32))),
});

const originSecret = cachedSecret('origin secret');

export function clearOriginSecretCache(): void {
  originSecret.clear();
}

/** Throws the spec's 403 when the stage takes requests only from its CloudFront distribution and this one is not. */
export async function refuseDirectRequests(
  deps: Pick<Deps, 'config' | 'now'>,
  headers: Record<string, string | undefined>,
  fetchFn: typeof fetch = fetch,
): Promise<void> {
  const { originSecretArn } = deps.config;
  if (!originSecretArn) return;
  const sent = headerValue(headers, ORIGIN_HEADER);
  const { current, previous } = parseSecret(await originSecret.read(deps, originSecretArn, fetchFn));
  const accepted = previous === undefined ? [current] : [current, previous];
  if (sent === undefined || !accepted.some((value) => sameText(value, sent)))
    throw forbidden('This API is served through its own address only; send the request there', {
      code: 'origin_not_allowed',
    });
}

function parseSecret(text: string): z.output<typeof OriginSecret> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = z.safeParse(OriginSecret, json);
  if (!parsed.success)
    throw new Error('the origin secret is not {"current": "…", "previous"?: "…"} (32 characters or more each)');
  return parsed.data;
}

/** Header names are case-insensitive; API Gateway lower-cases them, hand-built events may not. */
function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

/** Compares in constant time for equal lengths, so the answer's timing tells nothing about the secret. */
function sameText(expected: string, sent: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
