import { createHmac, timingSafeEqual } from 'node:crypto';

// Bearer tokens are compact JWTs, HS256 under the stage's secret, signed and verified with node:crypto rather than a
// JOSE library (docs/decisions.md); the unit tests hold both halves to what jose produces and accepts.

/** The `iss` of every token this service issues. */
const TOKEN_ISSUER = 'pet-api';
/** The only algorithm a token may name: HMAC-SHA256 under the stage's secret. */
const TOKEN_ALGORITHM = 'HS256';

const base64urlJson = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hmac = (secret: Uint8Array, signingInput: string) => createHmac('sha256', secret).update(signingInput).digest();
const TOKEN_HEADER = base64urlJson({ alg: TOKEN_ALGORITHM, typ: 'JWT' });

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** A short-lived bearer credential for one account, signed with the stage's secret. */
export function issueToken(secret: Uint8Array, accountId: string, now: Date, ttlSeconds: number): IssuedToken {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const claims = base64urlJson({ sub: accountId, iss: TOKEN_ISSUER, iat: issuedAt, exp: issuedAt + ttlSeconds });
  const signature = hmac(secret, `${TOKEN_HEADER}.${claims}`).toString('base64url');
  return { access_token: `${TOKEN_HEADER}.${claims}.${signature}`, token_type: 'Bearer', expires_in: ttlSeconds };
}

export interface VerifiedToken {
  accountId: string;
  /** The token's `exp`, in milliseconds since the epoch. */
  expiresAtMs: number;
}

/** Longer than any token this service issues (about 200 characters); longer ones are not even decoded. */
export const MAX_TOKEN_LENGTH = 1024;

// A compact JWS: three unpadded base64url segments; an HMAC-SHA256 signature is 32 bytes, 43 characters.
const COMPACT_HS256 = /^([\w-]+)\.([\w-]+)\.([\w-]{43})$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A segment's JSON object, or undefined when it is not valid UTF-8 JSON holding an object. */
function jsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(utf8.decode(Buffer.from(segment, 'base64url')));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The account a valid token was issued to and when it expires, or undefined. The header must name HS256 exactly and
 * no critical extension, the signature must be the HMAC of the first two segments (compared in constant time), `iss`
 * must be this service's, `sub` and `exp` must be present (every credential this service accepts runs out), `exp` in
 * the future, `nbf` (if any) not, and `iat` (if any) a number: the checks jose's `jwtVerify` made with the options
 * this service gave it.
 */
export function verifyToken(secret: Uint8Array, token: string, now: Date): VerifiedToken | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const segments = COMPACT_HS256.exec(token);
  if (!segments) return undefined;
  const [, encodedHeader, encodedClaims, encodedSignature] = segments as unknown as [string, string, string, string];
  const header = jsonObject(encodedHeader);
  if (header?.alg !== TOKEN_ALGORITHM || 'crit' in header) return undefined;
  const signature = Buffer.from(encodedSignature, 'base64url');
  const expected = hmac(secret, `${encodedHeader}.${encodedClaims}`);
  // Only the canonical spelling of the signature: its last character carries two bits that decoding ignores.
  if (signature.toString('base64url') !== encodedSignature || !timingSafeEqual(signature, expected)) return undefined;
  const claims = jsonObject(encodedClaims);
  if (claims?.iss !== TOKEN_ISSUER || typeof claims.sub !== 'string' || !isNumericDate(claims.exp)) return undefined;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= nowSeconds) return undefined;
  if (claims.nbf !== undefined && !(isNumericDate(claims.nbf) && claims.nbf <= nowSeconds)) return undefined;
  if (claims.iat !== undefined && !isNumericDate(claims.iat)) return undefined;
  return { accountId: claims.sub, expiresAtMs: claims.exp * 1000 };
}
