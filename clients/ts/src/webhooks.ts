// Receiving the API's webhooks: the signature check of X-Webhook-Signature (shared/webhooks/signature.ts is the one
// implementation; the service signs with it, receivers verify with it).
import { verifyWebhookRequest } from '../../../shared/webhooks/receiver.ts';

export type { SignatureVerification as WebhookVerification } from '../../../shared/webhooks/receiver.ts';

/**
 * Checks a delivery: `rawBody` exactly as received (bytes or string, never re-serialised JSON), the
 * `X-Webhook-Signature` header, and the endpoint's `whsec_…` secret. Refuses deliveries more than 300 seconds old or
 * ahead (`toleranceSeconds`). Answers `{ ok: true, timestamp }` or `{ ok: false, reason }`.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | string[] | undefined,
  secret: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
) {
  return verifyWebhookRequest(rawBody, header, secret, options);
}
