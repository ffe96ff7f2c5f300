import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../../shared/auth/api-keys.ts';
import { issueToken, MAX_TOKEN_LENGTH, verifyToken } from '../../../shared/auth/tokens.ts';

const secret = new TextEncoder().encode('a-signing-secret-of-at-least-32-bytes!!');
const now = new Date('2026-11-22T10:00:00Z');

describe('bearer tokens', () => {
  it('round-trip to the account they were issued for', async () => {
    const token = await issueToken(secret, 'acc-1', now, 3600);

    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(await verifyToken(secret, token.access_token, now)).toEqual({
      accountId: 'acc-1',
      expiresAtMs: now.getTime() + 3_600_000,
    });
  });

  it('stop working when they expire', async () => {
    const token = await issueToken(secret, 'acc-1', now, 60);

    expect(await verifyToken(secret, token.access_token, new Date(now.getTime() + 61_000))).toBeUndefined();
  });

  it('are rejected under another secret or when tampered with', async () => {
    const { access_token } = await issueToken(secret, 'acc-1', now, 60);
    const other = new TextEncoder().encode('another-signing-secret-of-32-bytes!!!!!');

    expect(await verifyToken(other, access_token, now)).toBeUndefined();
    expect(await verifyToken(secret, `${access_token}x`, now)).toBeUndefined();
    expect(await verifyToken(secret, 'not-a-token', now)).toBeUndefined();
  });

  it('are refused without an expiry or a subject, even when correctly signed', async () => {
    const iat = Math.floor(now.getTime() / 1000);
    const sign = (claims: { sub?: string; exp?: number }) => {
      const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('pet-api').setIssuedAt(iat);
      if (claims.sub) jwt.setSubject(claims.sub);
      if (claims.exp) jwt.setExpirationTime(claims.exp);
      return jwt.sign(secret);
    };

    expect(await verifyToken(secret, await sign({ sub: 'acc-1' }), now)).toBeUndefined();
    expect(await verifyToken(secret, await sign({ exp: iat + 60 }), now)).toBeUndefined();
    expect(await verifyToken(secret, await sign({ sub: 'acc-1', exp: iat + 60 }), now)).toMatchObject({
      accountId: 'acc-1',
    });
  });

  it('are refused on length alone past MAX_TOKEN_LENGTH', async () => {
    expect(await verifyToken(secret, 'x'.repeat(MAX_TOKEN_LENGTH + 1), now)).toBeUndefined();
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
