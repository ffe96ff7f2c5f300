import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyStandardWebhook, verifyWebhook } from '../../../clients/ts/src/index.ts';
import { signPayload, verifySignature } from '../../../shared/webhooks/signature.ts';

const SECRET = 'whsec_client_test_secret';
const BODY = '{"id":42,"_metadata":{"event_type":"vote.created","timestamp":"2026-01-01T00:00:00.000Z"}}';
const T = 1_767_225_600;

describe('verifyWebhook (the client’s own copy of the X-Webhook-Signature check)', () => {
  it('accepts what the service signs, as text or bytes, with one or several v1 entries', async () => {
    const header = signPayload(SECRET, BODY, T);
    expect(await verifyWebhook(BODY, header, SECRET, { nowSeconds: T })).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhook(new TextEncoder().encode(BODY), header, SECRET, { nowSeconds: T })).toMatchObject({
      ok: true,
    });
    const rotated = `${signPayload('whsec_old', BODY, T)}, ${header.split(',')[1]}`;
    expect(await verifyWebhook(BODY, rotated, SECRET, { nowSeconds: T })).toMatchObject({ ok: true });
    expect(await verifyWebhook(BODY, [header], SECRET, { nowSeconds: T })).toMatchObject({ ok: true });
  });

  it('refuses with the reason: missing, malformed, mismatch, too old, in the future', async () => {
    const header = signPayload(SECRET, BODY, T);
    const at = (nowSeconds: number) => verifyWebhook(BODY, header, SECRET, { nowSeconds });
    expect(await verifyWebhook(BODY, undefined, SECRET)).toEqual({ ok: false, reason: 'missing_header' });
    expect(await verifyWebhook(BODY, 'v1=abc', SECRET)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(await verifyWebhook(BODY, `t=${T},t=${T},v1=00`, SECRET)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(await verifyWebhook(`${BODY} `, header, SECRET, { nowSeconds: T })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(await at(T + 300)).toMatchObject({ ok: true });
    expect(await at(T + 301)).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(await at(T - 301)).toEqual({ ok: false, reason: 'timestamp_in_future' });
  });

  it('answers as the service’s own check does, for any body, secret, timestamp and clock', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom('same', 'other secret', 'other body', 'mangled'),
        async (body, secret, t, skew, variant) => {
          let header = signPayload(variant === 'other secret' ? `${secret}x` : secret, body, t);
          if (variant === 'mangled') header = header.replace('v1=', 'v1=0');
          const received = variant === 'other body' ? `${body}.` : body;
          const options = { nowSeconds: t + skew };
          expect(await verifyWebhook(received, header, secret, options)).toEqual(
            verifySignature({ header, rawBody: received, secret, ...options }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('verifyStandardWebhook (webhook-id, webhook-timestamp, webhook-signature)', () => {
  // The example of the Standard Webhooks specification, whose reference library signs it the same way.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1_614_265_330;
  const payload = '{"test": 2432232314}';
  const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };

  it('accepts the specification’s example, which the reference library signs identically', async () => {
    expect(new Webhook(secret).sign(id, new Date(timestamp * 1000), payload)).toBe(signature);
    expect(await verifyStandardWebhook(payload, headers, secret, { nowSeconds: timestamp })).toEqual({
      ok: true,
      timestamp,
    });
    expect(await verifyStandardWebhook(payload, new Headers(headers), secret, { nowSeconds: timestamp })).toMatchObject(
      { ok: true },
    );
  });

  it('accepts any signature among several and refuses a changed id, body or clock', async () => {
    const now = { nowSeconds: timestamp };
    const several = { ...headers, 'webhook-signature': `v1,${'A'.repeat(43)}= v2,x ${signature}` };
    expect(await verifyStandardWebhook(payload, several, secret, now)).toMatchObject({ ok: true });
    const otherId = { ...headers, 'webhook-id': 'msg_other' };
    expect(await verifyStandardWebhook(payload, otherId, secret, now)).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(await verifyStandardWebhook(`${payload} `, headers, secret, now)).toMatchObject({ ok: false });
    expect(await verifyStandardWebhook(payload, headers, secret, { nowSeconds: timestamp + 301 })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
    const { 'webhook-id': _, ...noId } = headers;
    expect(await verifyStandardWebhook(payload, noId, secret, now)).toEqual({ ok: false, reason: 'missing_header' });
  });

  it('verifies whatever the reference library signs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/\s/.test(s)),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        async (key, msgId, body, t) => {
          const whsec = `whsec_${Buffer.from(key).toString('base64')}`;
          const signed = new Webhook(whsec).sign(msgId, new Date(t * 1000), body);
          const sent = { 'webhook-id': msgId, 'webhook-timestamp': String(t), 'webhook-signature': signed };
          expect(await verifyStandardWebhook(body, sent, whsec, { nowSeconds: t })).toEqual({ ok: true, timestamp: t });
        },
      ),
      { numRuns: 200 },
    );
  });
});
