import { verifySignature, type RawBody, type SignatureVerification, type VerifySignatureInput } from './signature.ts';

/**
 * Verification for receivers of our webhooks (Express, node:http, or anything that exposes the
 * raw body and the request headers).
 *
 * - Verify the RAW body: the bytes exactly as received (`express.raw({ type: 'application/json' })`,
 *   or the concatenated chunks of a node:http request). JSON that was parsed and re-serialised
 *   no longer matches the signature, even when it looks the same.
 * - Signatures are compared in constant time, so response timing reveals nothing about the secret.
 * - Deliveries whose timestamp is more than 5 minutes old (or ahead) are refused: a captured
 *   delivery cannot be replayed later.
 * - Inside those 5 minutes a copy can still arrive twice (retries, at-least-once delivery), so
 *   deduplicate: remember the `X-Webhook-Id` header value (or, without one, the review or
 *   resource id, as the spec suggests) for longer than the tolerance, and acknowledge repeats
 *   without processing them again.
 * - Answer 2xx within 5 seconds and do slow work afterwards; a slow reply counts as a failure.
 *
 * The same header verifies with `stripe.webhooks.constructEvent(rawBody, header, secret)` too.
 */

export { SIGNATURE_HEADER, type SignatureVerification } from './signature.ts';

export const WEBHOOK_ID_HEADER = 'X-Webhook-Id';

/** Defaults: the current clock and a 300-second tolerance. */
export type VerifyWebhookRequestOptions = Pick<VerifySignatureInput, 'nowSeconds' | 'toleranceSeconds'>;

/**
 * @param signatureHeader as found in `req.headers['x-webhook-signature']` or `req.get('X-Webhook-Signature')`
 *   (node:http lower-cases header names; a repeated header arrives as an array).
 */
export function verifyWebhookRequest(
  rawBody: RawBody,
  signatureHeader: string | string[] | undefined,
  secret: string,
  options: VerifyWebhookRequestOptions = {},
): SignatureVerification {
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  return verifySignature({ ...options, header, rawBody, secret });
}
