// Verifying the API's webhook deliveries with Web Crypto (Node 20+, browsers, Deno, workers): the spec's
// X-Webhook-Signature, and the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature).
// HMAC comparison is crypto.subtle.verify's, which takes the same time whatever the candidate holds.

export type WebhookFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_in_future';

export type WebhookVerification = { ok: true; timestamp: number } | { ok: false; reason: WebhookFailure };

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now, either way (default 300 s, the spec's five minutes). */
  toleranceSeconds?: number;
  /** The clock, in Unix seconds (default now). */
  nowSeconds?: number;
}

/** The body exactly as received: the raw bytes, or their UTF-8 text. Never re-serialised JSON. */
export type RawBody = string | Uint8Array;

type HeaderValue = string | string[] | null | undefined;
/** `Headers` (fetch) or a plain record such as node:http's `req.headers` (lower-case names). */
export type HeadersLike = Headers | Record<string, HeaderValue>;

const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';
const UNIX_SECONDS = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Checks `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over `"<t>.<raw body>"`, keyed with the whole
 * `whsec_…` secret as UTF-8. Several `v1` entries (signing with two secrets during a rotation) pass if one matches.
 */
export async function verifyWebhook(
  rawBody: RawBody,
  header: HeaderValue,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookVerification> {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value?.trim()) return { ok: false, reason: 'missing_header' };
  const fields = value.split(',').map((entry) => entry.trim().split('='));
  const timestamps = fields.filter(([key]) => key === 't').map(([, v]) => v ?? '');
  const signatures = fields.filter(([key]) => key === 'v1').map(([, v]) => v ?? '');
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || !timestamp || !UNIX_SECONDS.test(timestamp) || signatures.length === 0) {
    return { ok: false, reason: 'malformed_header' };
  }
  const candidates = signatures.filter((s) => HEX_SHA256.test(s)).map(fromHex);
  return verified(utf8(secret), `${timestamp}.`, rawBody, candidates, Number(timestamp), options);
}

/**
 * Checks the Standard Webhooks headers: `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` over
 * `"<webhook-id>.<webhook-timestamp>.<raw body>"`, keyed with the base64 part of the `whsec_…` secret.
 */
export async function verifyStandardWebhook(
  rawBody: RawBody,
  headers: HeadersLike,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookVerification> {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signature = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing_header' };
  if (!UNIX_SECONDS.test(timestamp)) return { ok: false, reason: 'malformed_header' };
  const candidates = signature
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value !== undefined && BASE64_SHA256.test(value))
    .map(([, value]) => fromBase64(value!));
  const key = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  return verified(key, `${id}.${timestamp}.`, rawBody, candidates, Number(timestamp), options);
}

/** The signature first, then the clock: a timestamp failure then means "authentic but stale", not a wrong secret. */
async function verified(
  key: Uint8Array<ArrayBuffer>,
  prefix: string,
  rawBody: RawBody,
  candidates: Uint8Array<ArrayBuffer>[],
  timestamp: number,
  options: VerifyOptions,
): Promise<WebhookVerification> {
  const { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, nowSeconds = Date.now() / 1000 } = options;
  if (key.length === 0) throw new TypeError('The signing secret must not be empty');
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const message = concat(utf8(prefix), typeof rawBody === 'string' ? utf8(rawBody) : rawBody);
  const checks = await Promise.all(candidates.map((c) => crypto.subtle.verify('HMAC', hmacKey, c, message)));
  if (!checks.includes(true)) return { ok: false, reason: 'signature_mismatch' };
  const age = nowSeconds - timestamp;
  if (age > toleranceSeconds) return { ok: false, reason: 'timestamp_too_old' };
  if (-age > toleranceSeconds) return { ok: false, reason: 'timestamp_in_future' };
  return { ok: true, timestamp };
}

function headerOf(headers: HeadersLike, name: string): string | undefined {
  const value =
    headers instanceof Headers
      ? headers.get(name)
      : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return (Array.isArray(value) ? value.join(' ') : value)?.trim() || undefined;
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** Throws on text that is not base64 (a malformed secret is the caller's bug, not the sender's). */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
