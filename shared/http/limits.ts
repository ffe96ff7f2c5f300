// Request-wide limits of the HTTP pipeline, in one place: docs/security.md lists each with its reason.

/** JSON request bodies: the largest legitimate one (a webhook or account payload) is a few KB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/** A validation error lists at most this many problems, then says how many more there were. */
export const MAX_REPORTED_PROBLEMS = 20;

/** Names and values quoted back in error messages are cut to this many characters. */
export const MAX_ECHOED_CHARS = 64;

/** `Idempotency-Key` header: 1 to 255 visible ASCII characters (Stripe's bound), so a key is never a payload. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** How long a stored response answers repeats of its `Idempotency-Key` (Stripe keeps keys for 24 hours). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
