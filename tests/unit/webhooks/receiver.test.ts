import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, WEBHOOK_ID_HEADER, verifyWebhookRequest } from '../../../shared/webhooks/receiver.ts';
import { signPayload } from '../../../shared/webhooks/signature.ts';

const SECRET = 'whsec_receiver_test';
const BODY = '{"id":"img_1","_metadata":{"event_type":"image.uploaded","timestamp":"2026-01-01T00:00:00.000Z"}}';
const T = 1_767_225_600;

describe('verifyWebhookRequest', () => {
  it('accepts a raw Buffer body with the header value as node:http exposes it', () => {
    const headers = { 'x-webhook-signature': signPayload(SECRET, BODY, T) };
    expect(verifyWebhookRequest(Buffer.from(BODY), headers['x-webhook-signature'], SECRET, { nowSeconds: T })).toEqual({
      ok: true,
      timestamp: T,
    });
  });

  it('reports a missing header when the request has none', () => {
    expect(verifyWebhookRequest(BODY, undefined, SECRET, { nowSeconds: T })).toEqual({
      ok: false,
      reason: 'missing_header',
    });
  });

  it('joins a repeated header so any of its signatures can match', () => {
    const [timestamp, current] = signPayload(SECRET, BODY, T).split(',');
    const header = [`${timestamp},v1=${'0'.repeat(64)}`, current ?? ''];
    expect(verifyWebhookRequest(BODY, header, SECRET, { nowSeconds: T }).ok).toBe(true);
  });

  it('applies the five-minute tolerance by default', () => {
    const header = signPayload(SECRET, BODY, T);
    expect(verifyWebhookRequest(BODY, header, SECRET, { nowSeconds: T + 300 }).ok).toBe(true);
    expect(verifyWebhookRequest(BODY, header, SECRET, { nowSeconds: T + 301 })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
  });

  it('accepts a custom tolerance', () => {
    const header = signPayload(SECRET, BODY, T);
    expect(verifyWebhookRequest(BODY, header, SECRET, { nowSeconds: T + 61, toleranceSeconds: 60 }).ok).toBe(false);
  });

  it('rejects a body that was parsed and re-serialised', () => {
    const header = signPayload(SECRET, BODY, T);
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(verifyWebhookRequest(reserialised, header, SECRET, { nowSeconds: T })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('names the headers receivers need', () => {
    expect(SIGNATURE_HEADER).toBe('X-Webhook-Signature');
    expect(WEBHOOK_ID_HEADER).toBe('X-Webhook-Id');
  });
});
