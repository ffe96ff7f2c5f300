// Request-wide limits of the HTTP pipeline, in one place: docs/security.md lists each with its reason.

/** JSON request bodies: the largest legitimate one (a webhook or account payload) is a few KB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/** A validation error lists at most this many problems, then says how many more there were. */
export const MAX_REPORTED_PROBLEMS = 20;

/** Every error body stays within this many bytes, whatever the request held (tests/unit/http/responses.test.ts). */
export const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** One message of an error body: room for a sentence quoting a few echoed values. */
export const MAX_ERROR_MESSAGE_CHARS = 1000;

/**
 * The messages of one error body together, as JSON: with the path (≤ 6 bytes per echoed character, a control
 * character's escape) and the other fields, the body stays under MAX_ERROR_BODY_BYTES.
 */
export const MAX_ERROR_MESSAGES_BYTES = 12 * 1024;

/** `Idempotency-Key` header: 1 to 255 visible ASCII characters (Stripe's bound), so a key is never a payload. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** How long a stored response answers repeats of its `Idempotency-Key` (Stripe keeps keys for 24 hours). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
