import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures as the spec defines them:
 *   X-Webhook-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The HMAC key is the whole secret string, `whsec_` prefix included, as UTF-8. That is exactly
 * Stripe's scheme, so receivers can verify with `stripe.webhooks.constructEvent` (covered by a test).
 *
 * Beside it, the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature: `v1,<base64 HMAC-SHA256
 * of "<id>.<t>.<raw body>">`), keyed with the bytes the part after `whsec_` encodes in standard base64. Secrets are
 * made so that both readings hold; secrets made before (base64url, 43 characters) are no such key, so their endpoints
 * send only the spec's header until the secret is rotated.
 */

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const SIGNING_SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 300;
const STANDARD_ID_HEADER = 'webhook-id';
const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

/** Standard Webhooks: symmetric keys are 24 to 64 bytes. */
const STANDARD_KEY_BYTES = { min: 24, max: 64 };
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The body exactly as sent or received; bytes are hashed as they are, strings as UTF-8. */
export type RawBody = string | Uint8Array;

export type SignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_in_future';

export type SignatureVerification = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export interface VerifySignatureInput {
  header: string | undefined;
  rawBody: RawBody;
  secret: string;
  /** Defaults to the current clock; inject it to make tests deterministic. */
  nowSeconds?: number;
  toleranceSeconds?: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/** 32 random bytes in standard base64: a Stripe-style string key and a Standard Webhooks `whsec_` key at once. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The Standard Webhooks key a secret encodes, or undefined for one that is none (the base64url secrets made before). */
export function standardWebhookKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SIGNING_SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SIGNING_SECRET_PREFIX.length);
  if (!STANDARD_BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= STANDARD_KEY_BYTES.min && key.length <= STANDARD_KEY_BYTES.max ? key : undefined;
}

/** The Standard Webhooks headers of one delivery: the message id, the attempt's time and `v1,<base64 signature>`. */
export function standardWebhookHeaders(
  key: Buffer,
  messageId: string,
  rawBody: RawBody,
  unixSeconds: number,
): Record<string, string> {
  const signature = createHmac('sha256', key).update(`${messageId}.${unixSeconds}.`).update(rawBody).digest('base64');
  return {
    [STANDARD_ID_HEADER]: messageId,
    [STANDARD_TIMESTAMP_HEADER]: String(unixSeconds),
    [STANDARD_SIGNATURE_HEADER]: `v1,${signature}`,
  };
}

export function signPayload(secret: string, rawBody: RawBody, unixSeconds: number): string {
  // A fractional or negative `t` would produce a header no verifier can parse.
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0) {
    throw new RangeError(`unixSeconds must be a non-negative integer, got ${unixSeconds}`);
  }
  return `t=${unixSeconds},v1=${hmacSha256(secret, rawBody, unixSeconds).toString('hex')}`;
}

/**
 * Checks the signature before the timestamp (as Stripe does), so a timestamp failure means
 * "authentic but stale or skewed" rather than hiding a wrong secret behind a clock problem.
 * Timestamps more than the tolerance in the future are refused too, so a captured delivery
 * with a forged future `t` cannot be replayed; exactly `toleranceSeconds` either way is accepted.
 */
export function verifySignature(input: VerifySignatureInput): SignatureVerification {
  const { header, rawBody, secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = input;
  const nowSeconds = input.nowSeconds ?? Date.now() / 1000;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(`toleranceSeconds must be a non-negative number, got ${toleranceSeconds}`);
  }
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing_header' };

  const parsed = parseSignatureHeader(header);
  if (parsed === undefined) return { ok: false, reason: 'malformed_header' };

  const expected = hmacSha256(secret, rawBody, parsed.timestamp);
  const matches = parsed.signatures.some(
    (candidate) => HEX_SHA256.test(candidate) && timingSafeEqual(Buffer.from(candidate, 'hex'), expected),
  );
  if (!matches) return { ok: false, reason: 'signature_mismatch' };

  const age = nowSeconds - parsed.timestamp;
  if (age > toleranceSeconds) return { ok: false, reason: 'timestamp_too_old' };
  if (-age > toleranceSeconds) return { ok: false, reason: 'timestamp_in_future' };
  return { ok: true, timestamp: parsed.timestamp };
}

interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/**
 * Exactly one `t` and at least one `v1` are required; unknown keys are ignored so new schemes can
 * be added alongside `v1`. Several `v1` entries allow signing with more than one secret at once.
 * Whitespace around entries is tolerated because proxies that merge repeated headers insert ", ".
 */
function parseSignatureHeader(header: string): ParsedSignatureHeader | undefined {
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const entry of header.split(',')) {
    const separator = entry.indexOf('=');
    if (separator === -1) continue;
    const key = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    if (key === 'v1') signatures.push(value);
  }
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || timestamp === undefined || !UNIX_SECONDS.test(timestamp)) return undefined;
  if (signatures.length === 0) return undefined;
  return { timestamp: Number(timestamp), signatures };
}

function hmacSha256(secret: string, rawBody: RawBody, unixSeconds: number): Buffer {
  // An empty key still "works" in HMAC, which would silently sign with no secret at all.
  if (secret === '') throw new TypeError('The signing secret must not be empty');
  return createHmac('sha256', secret).update(`${unixSeconds}.`).update(rawBody).digest();
}
