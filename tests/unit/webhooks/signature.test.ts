import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateSigningSecret,
  signPayload,
  standardWebhookHeaders,
  standardWebhookKey,
  verifySignature,
} from '../../../shared/webhooks/signature.ts';

// Expected digests were computed once outside Node with `openssl dgst -sha256 -hmac <secret>`
// and cross-checked with Python's hmac module.
const KNOWN_VECTORS = [
  {
    name: 'a JSON delivery body',
    secret: 'whsec_test_secret_0123456789',
    timestamp: 1_700_000_000,
    body: '{"id":"img_123","_metadata":{"event_type":"image.uploaded","timestamp":"2023-11-14T22:13:20.000Z"}}',
    v1: 'cad06f8d5b6fb40a48bcfc20e6c974ae96c39d4d318f9ea3de188dbfe743d2de',
  },
  {
    name: 'a body with non-ASCII characters (hashed as UTF-8)',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    timestamp: 1_731_000_000,
    body: '{"name":"Fido 🐶","note":"café"}',
    v1: '0044e16014bd5afa6028fbcacc4421cd4bdcce7047aeff99f9de5bab6c9755fc',
  },
  {
    name: 'an empty body at timestamp zero',
    secret: 'whsec_x',
    timestamp: 0,
    body: '',
    v1: '4e8c2621ad6b7e8ee9325e803d12429025d82e5abc79b476cf0efabfaf9a6e57',
  },
];

const SECRET = 'whsec_unit_test_secret';
const BODY = '{"id":42,"_metadata":{"event_type":"vote.created","timestamp":"2026-01-01T00:00:00.000Z"}}';
const T = 1_767_225_600;

function headerFor(body: string, t = T, secret = SECRET): string {
  return signPayload(secret, body, t);
}

describe('signPayload', () => {
  it.each(KNOWN_VECTORS)('matches the independently computed HMAC for $name', ({ secret, timestamp, body, v1 }) => {
    expect(signPayload(secret, body, timestamp)).toBe(`t=${timestamp},v1=${v1}`);
  });

  it('signs a Buffer body exactly like the same bytes given as a string', () => {
    const [vector] = KNOWN_VECTORS;
    if (vector === undefined) throw new Error('no vector');
    expect(signPayload(vector.secret, Buffer.from(vector.body, 'utf8'), vector.timestamp)).toBe(
      `t=${vector.timestamp},v1=${vector.v1}`,
    );
  });

  it('emits exactly "t=<digits>,v1=<64 lowercase hex>" with no spaces', () => {
    expect(headerFor(BODY)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('uses the whole secret including the whsec_ prefix as the key', () => {
    expect(signPayload('whsec_abc', BODY, T)).not.toBe(signPayload('abc', BODY, T));
  });

  it.each([1.5, -1, Number.NaN])('refuses the non-integer or negative timestamp %s', (timestamp) => {
    expect(() => signPayload(SECRET, BODY, timestamp)).toThrow(RangeError);
  });

  it('refuses an empty secret instead of signing with no key', () => {
    expect(() => signPayload('', BODY, T)).toThrow(TypeError);
  });
});

describe('verifySignature', () => {
  it('accepts a signature it produced (round trip)', () => {
    expect(verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T })).toEqual({
      ok: true,
      timestamp: T,
    });
  });

  it('accepts a known vector from the hand-computed table', () => {
    for (const { secret, timestamp, body, v1 } of KNOWN_VECTORS) {
      const header = `t=${timestamp},v1=${v1}`;
      expect(verifySignature({ header, rawBody: body, secret, nowSeconds: timestamp }).ok).toBe(true);
    }
  });

  it('accepts the raw body as a Buffer', () => {
    expect(
      verifySignature({ header: headerFor(BODY), rawBody: Buffer.from(BODY), secret: SECRET, nowSeconds: T }).ok,
    ).toBe(true);
  });

  it('uses the current clock when no time is injected', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature({ header: headerFor(BODY, now), rawBody: BODY, secret: SECRET }).ok).toBe(true);
  });

  it('accepts a timestamp exactly 300 seconds old', () => {
    const result = verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T + 300 });
    expect(result.ok).toBe(true);
  });

  it('rejects a timestamp 301 seconds old as too old', () => {
    const result = verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T + 301 });
    expect(result).toEqual({ ok: false, reason: 'timestamp_too_old' });
  });

  it('accepts a timestamp exactly 300 seconds ahead of the clock', () => {
    const result = verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T - 300 });
    expect(result.ok).toBe(true);
  });

  it('rejects a timestamp 301 seconds ahead of the clock as in the future', () => {
    const result = verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T - 301 });
    expect(result).toEqual({ ok: false, reason: 'timestamp_in_future' });
  });

  it('honours a custom tolerance', () => {
    const input = { header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T + 11 };
    expect(verifySignature({ ...input, toleranceSeconds: 10 })).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verifySignature({ ...input, toleranceSeconds: 11 }).ok).toBe(true);
  });

  it('defaults the tolerance to five minutes', () => {
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  it('refuses a negative tolerance as a programming error', () => {
    expect(() =>
      verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: SECRET, nowSeconds: T, toleranceSeconds: -1 }),
    ).toThrow(RangeError);
  });

  it('reports a mismatch for a tampered body', () => {
    const tampered = BODY.replace('42', '43');
    expect(verifySignature({ header: headerFor(BODY), rawBody: tampered, secret: SECRET, nowSeconds: T })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('reports a mismatch for a re-serialised body that looks the same', () => {
    const reformatted = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifySignature({ header: headerFor(BODY), rawBody: reformatted, secret: SECRET, nowSeconds: T }).ok).toBe(
      false,
    );
  });

  it('reports a mismatch for the wrong secret', () => {
    const result = verifySignature({ header: headerFor(BODY), rawBody: BODY, secret: 'whsec_other', nowSeconds: T });
    expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('reports a mismatch when the timestamp in the header was altered', () => {
    const header = headerFor(BODY).replace(`t=${T}`, `t=${T + 1}`);
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('checks the signature before the age, so a forged old delivery is reported as a mismatch', () => {
    const result = verifySignature({
      header: headerFor(BODY),
      rawBody: `${BODY} `,
      secret: SECRET,
      nowSeconds: T + 3600,
    });
    expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('accepts a header carrying several v1 entries when any one of them matches', () => {
    const old = signPayload('whsec_previous', BODY, T).split(',')[1];
    const current = headerFor(BODY).split(',')[1];
    expect(
      verifySignature({ header: `t=${T},${old},${current}`, rawBody: BODY, secret: SECRET, nowSeconds: T }).ok,
    ).toBe(true);
    expect(
      verifySignature({ header: `t=${T},${current},${old}`, rawBody: BODY, secret: SECRET, nowSeconds: T }).ok,
    ).toBe(true);
  });

  it('reports a mismatch when none of several v1 entries matches', () => {
    const header = `t=${T},v1=${'0'.repeat(64)},v1=${'f'.repeat(64)}`;
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('ignores unknown schemes next to v1', () => {
    const header = `${headerFor(BODY)},v0=deadbeef,v2=whatever`;
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T }).ok).toBe(true);
  });

  it('tolerates a space after the comma, as left by proxies that merge headers', () => {
    const header = headerFor(BODY).replace(',', ', ');
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T }).ok).toBe(true);
  });

  it('treats uppercase or truncated hex as a mismatch, never as a match', () => {
    const v1 = headerFor(BODY).split('v1=')[1] ?? '';
    for (const candidate of [v1.toUpperCase(), v1.slice(0, 63), `${v1}00`]) {
      const result = verifySignature({
        header: `t=${T},v1=${candidate}`,
        rawBody: BODY,
        secret: SECRET,
        nowSeconds: T,
      });
      expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
    }
  });

  it.each([undefined, '', '   '])('reports a missing header for %j', (header) => {
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T })).toEqual({
      ok: false,
      reason: 'missing_header',
    });
  });

  it.each([
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1 entry', `t=${T}`],
    ['a non-numeric timestamp', `t=abc,v1=${'a'.repeat(64)}`],
    ['a negative timestamp', `t=-5,v1=${'a'.repeat(64)}`],
    ['a fractional timestamp', `t=1.5,v1=${'a'.repeat(64)}`],
    ['two timestamps', `t=${T},t=${T + 1},v1=${'a'.repeat(64)}`],
    ['garbage', 'not a signature'],
    ['the Standard Webhooks format', `v1,${Buffer.alloc(32).toString('base64')}`],
  ])('reports a malformed header with %s', (_description, header) => {
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
  });
});

describe('generateSigningSecret', () => {
  it('returns whsec_ followed by 32 random bytes in standard base64 (a Standard Webhooks key)', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standardWebhookKey(secret)).toEqual(Buffer.from(secret.slice('whsec_'.length), 'base64'));
    expect(standardWebhookKey(secret)).toHaveLength(32);
  });

  it('returns a different secret every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateSigningSecret));
    expect(secrets.size).toBe(50);
  });

  it('produces secrets that sign and verify', () => {
    const secret = generateSigningSecret();
    expect(verifySignature({ header: signPayload(secret, BODY, T), rawBody: BODY, secret, nowSeconds: T }).ok).toBe(
      true,
    );
  });
});

describe('Standard Webhooks headers', () => {
  const secret = generateSigningSecret();

  it('verify with the standardwebhooks package and the same secret string that keys X-Webhook-Signature', () => {
    const headers = standardWebhookHeaders(standardWebhookKey(secret)!, 'evt_1', BODY, T);
    const now = Date.now();
    const current = standardWebhookHeaders(standardWebhookKey(secret)!, 'evt_1', BODY, Math.floor(now / 1000));

    expect(headers).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(T),
      'webhook-signature': new Webhook(secret).sign('evt_1', new Date(T * 1000), BODY),
    });
    expect(new Webhook(secret).verify(BODY, current)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(generateSigningSecret()).verify(BODY, current)).toThrow();
  });

  it('are not made from the base64url secrets of before, nor from a key outside 24 to 64 bytes', () => {
    expect(standardWebhookKey(`whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`)).toBeUndefined();
    expect(standardWebhookKey('whsec_test_secret_0123456789')).toBeUndefined();
    expect(standardWebhookKey(`whsec_${Buffer.alloc(23).toString('base64')}`)).toBeUndefined();
    expect(standardWebhookKey(`whsec_${Buffer.alloc(65).toString('base64')}`)).toBeUndefined();
    expect(standardWebhookKey(Buffer.alloc(32).toString('base64'))).toBeUndefined();
    expect(standardWebhookKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toHaveLength(24);
  });
});

// The stripe package is an independent implementation of the same scheme; receivers may use it.
describe('compatibility with the stripe package as an independent verifier', () => {
  const receivedAtMs = (seconds: number): number => seconds * 1000;

  it('accepts our header through stripe.webhooks.constructEvent', () => {
    const event = Stripe.webhooks.constructEvent(BODY, headerFor(BODY), SECRET, undefined, undefined, receivedAtMs(T));
    expect(event).toEqual(JSON.parse(BODY));
  });

  it('accepts our header for a Buffer body and a generated secret', () => {
    const secret = generateSigningSecret();
    const header = signPayload(secret, BODY, T);
    expect(() =>
      Stripe.webhooks.constructEvent(Buffer.from(BODY), header, secret, undefined, undefined, receivedAtMs(T)),
    ).not.toThrow();
  });

  it('accepts the known vectors', () => {
    const [vector] = KNOWN_VECTORS;
    if (vector === undefined) throw new Error('no vector');
    const header = `t=${vector.timestamp},v1=${vector.v1}`;
    expect(() =>
      Stripe.webhooks.constructEvent(
        vector.body,
        header,
        vector.secret,
        undefined,
        undefined,
        receivedAtMs(vector.timestamp),
      ),
    ).not.toThrow();
  });

  it('rejects our header for a tampered body', () => {
    const tampered = BODY.replace('42', '43');
    expect(() =>
      Stripe.webhooks.constructEvent(tampered, headerFor(BODY), SECRET, undefined, undefined, receivedAtMs(T)),
    ).toThrow(/No signatures found matching/);
  });

  it('rejects our header for the wrong secret', () => {
    expect(() =>
      Stripe.webhooks.constructEvent(BODY, headerFor(BODY), 'whsec_other', undefined, undefined, receivedAtMs(T)),
    ).toThrow(/No signatures found matching/);
  });

  it('rejects our header once it is more than 300 seconds old', () => {
    expect(() =>
      Stripe.webhooks.constructEvent(BODY, headerFor(BODY), SECRET, undefined, undefined, receivedAtMs(T + 301)),
    ).toThrow(/tolerance/);
  });

  it('produces the same header as stripe.webhooks.generateTestHeaderString', () => {
    expect(Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: T })).toBe(
      headerFor(BODY),
    );
  });

  it('verifies stripe-generated headers with our verifier', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: T });
    expect(verifySignature({ header, rawBody: BODY, secret: SECRET, nowSeconds: T }).ok).toBe(true);
  });
});
