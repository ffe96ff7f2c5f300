import { createHmac, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../../shared/auth/api-keys.ts';
import { issueToken, MAX_TOKEN_LENGTH, verifyToken } from '../../../shared/auth/tokens.ts';

const secret = new TextEncoder().encode('a-signing-secret-of-at-least-32-bytes!!');
const now = new Date('2026-11-22T10:00:00Z');
const nowSeconds = Math.floor(now.getTime() / 1000);

const segment = (value: unknown) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))).toString(
    'base64url',
  );
/** A compact JWS over any header and claims (JSON, raw text or bytes), HMAC-SHA256 signed with `key`. */
function signed(header: unknown, claims: unknown, key: Uint8Array = secret): string {
  const input = `${segment(header)}.${segment(claims)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
const valid = { iss: 'pet-api', sub: 'acc-1', iat: nowSeconds, exp: nowSeconds + 60 };
const hs256 = { alg: 'HS256', typ: 'JWT' };

/** What jose's jwtVerify says on its own, with the options the service gives it. */
const joseAccepts = (token: string) =>
  jwtVerify(token, secret, {
    issuer: 'pet-api',
    algorithms: ['HS256'],
    currentDate: now,
    requiredClaims: ['exp', 'sub'],
  }).then(
    () => true,
    () => false,
  );

describe('bearer tokens', () => {
  it('round-trip to the account they were issued for', async () => {
    const token = await issueToken(secret, 'acc-1', now, 3600);

    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(await verifyToken(secret, token.access_token, now)).toEqual({
      accountId: 'acc-1',
      expiresAtMs: now.getTime() + 3_600_000,
    });
  });

  // The same bytes jose's SignJWT writes for these claims, so every token issued before still verifies.
  it.each([
    ['acc-1', 3600],
    ['01JDZ3Q5R1XJ0A7F6T9K2M4N8P', 60],
    ['äcc "quoted" \\ 🐶', 1],
  ])('are the token jose signs for account %s, %i s', async (accountId, ttl) => {
    const jose = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(accountId)
      .setIssuer('pet-api')
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + ttl)
      .sign(secret);

    expect((await issueToken(secret, accountId, now, ttl)).access_token).toBe(jose);
    expect(await joseAccepts(jose)).toBe(true);
  });

  it('stop working when they expire', async () => {
    const token = await issueToken(secret, 'acc-1', now, 60);

    expect(await verifyToken(secret, token.access_token, new Date(now.getTime() + 59_000))).toBeDefined();
    expect(await verifyToken(secret, token.access_token, new Date(now.getTime() + 60_000))).toBeUndefined();
    expect(await verifyToken(secret, token.access_token, new Date(now.getTime() + 61_000))).toBeUndefined();
  });

  it('are rejected under another secret or when tampered with', async () => {
    const { access_token } = await issueToken(secret, 'acc-1', now, 60);
    const other = new TextEncoder().encode('another-signing-secret-of-32-bytes!!!!!');
    const [header, , signature] = access_token.split('.');

    expect(await verifyToken(other, access_token, now)).toBeUndefined();
    expect(await verifyToken(secret, `${access_token}x`, now)).toBeUndefined();
    expect(
      await verifyToken(secret, `${header}.${segment({ ...valid, sub: 'acc-2' })}.${signature}`, now),
    ).toBeUndefined();
    expect(await verifyToken(secret, 'not-a-token', now)).toBeUndefined();
  });

  it('are refused without an expiry or a subject, even when correctly signed', async () => {
    const sign = (claims: { sub?: string; exp?: number }) => {
      const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('pet-api').setIssuedAt(nowSeconds);
      if (claims.sub) jwt.setSubject(claims.sub);
      if (claims.exp) jwt.setExpirationTime(claims.exp);
      return jwt.sign(secret);
    };

    expect(await verifyToken(secret, await sign({ sub: 'acc-1' }), now)).toBeUndefined();
    expect(await verifyToken(secret, await sign({ exp: nowSeconds + 60 }), now)).toBeUndefined();
    expect(await verifyToken(secret, await sign({ sub: 'acc-1', exp: nowSeconds + 60 }), now)).toMatchObject({
      accountId: 'acc-1',
    });
  });

  it('are refused on length alone past MAX_TOKEN_LENGTH', async () => {
    expect(await verifyToken(secret, 'x'.repeat(MAX_TOKEN_LENGTH + 1), now)).toBeUndefined();
  });

  // Each case gets the answer jose's jwtVerify gives it with the service's options.
  const sameAsJose: [string, () => string | Promise<string>][] = [
    ['issued by the service', async () => (await issueToken(secret, 'acc-1', now, 60)).access_token],
    ['signed by jose without typ', () => new SignJWT(valid).setProtectedHeader({ alg: 'HS256' }).sign(secret)],
    ['with a future nbf', () => signed(hs256, { ...valid, nbf: nowSeconds + 10 })],
    ['with a past nbf', () => signed(hs256, { ...valid, nbf: nowSeconds - 10 })],
    ['with a string iat', () => signed(hs256, { ...valid, iat: 'yesterday' })],
    ['with a string exp', () => signed(hs256, { ...valid, exp: String(nowSeconds + 60) })],
    ['expiring this second', () => signed(hs256, { ...valid, exp: nowSeconds })],
    ['expiring next second', () => signed(hs256, { ...valid, exp: nowSeconds + 1 })],
    ['from another issuer', () => signed(hs256, { ...valid, iss: 'someone-else' })],
    ['without an issuer', () => signed(hs256, { sub: 'acc-1', exp: nowSeconds + 60 })],
    ['without a subject', () => signed(hs256, { iss: 'pet-api', exp: nowSeconds + 60 })],
    ['without an expiry', () => signed(hs256, { iss: 'pet-api', sub: 'acc-1' })],
    ['with alg none and no signature', () => `${segment({ alg: 'none' })}.${segment(valid)}.`],
    ['with alg none and an HMAC', () => signed({ alg: 'none' }, valid)],
    ['with alg hs256 in lower case', () => signed({ alg: 'hs256' }, valid)],
    ['without alg', () => signed({ typ: 'JWT' }, valid)],
    ['signed HS512 with the same secret', () => new SignJWT(valid).setProtectedHeader({ alg: 'HS512' }).sign(secret)],
    ['with an unknown critical header', () => signed({ alg: 'HS256', crit: ['exp'], exp: 1 }, valid)],
    ['with a header that is not JSON', () => signed('{alg:HS256}', valid)],
    ['with claims that are an array', () => signed(hs256, [valid])],
    ['with claims that are not JSON', () => signed(hs256, 'iss=pet-api')],
    ['with claims that are not UTF-8', () => signed(hs256, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
    ['with two segments', () => signed(hs256, valid).split('.').slice(0, 2).join('.')],
    ['with four segments', () => `${signed(hs256, valid)}.${segment('{}')}`],
  ];
  it.each(sameAsJose)('answer a token %s as jose did', async (_, make) => {
    const token = await make();

    expect((await verifyToken(secret, token, now)) !== undefined).toBe(await joseAccepts(token));
  });

  // Correctly signed tokens the service never issues, which jwtVerify alone takes and the service refuses.
  const stricterThanJose: [string, () => string][] = [
    [
      'with a non-canonical last signature character',
      () => {
        const token = signed(hs256, valid);
        const last = token.at(-1)!;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        return `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
      },
    ],
    ['with a padded signature', () => `${signed(hs256, valid)}=`],
    ['with a numeric subject', () => signed(hs256, { ...valid, sub: 42 })],
    ['with an infinite expiry', () => signed(hs256, '{"iss":"pet-api","sub":"acc-1","exp":1e999}')],
    ['with b64 declared critical', () => signed({ alg: 'HS256', crit: ['b64'], b64: true }, valid)],
  ];
  it.each(stricterThanJose)('refuse a token %s, which jose accepted', async (_, make) => {
    const token = make();

    expect(await joseAccepts(token)).toBe(true);
    expect(await verifyToken(secret, token, now)).toBeUndefined();
  });
});

describe('API keys', () => {
  it('are random, prefixed and stored as a SHA-256 hex digest', () => {
    const a = generateApiKey(randomBytes);
    const b = generateApiKey(randomBytes);

    expect(a).not.toBe(b);
    expect(a.startsWith('live_')).toBe(true);
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
