// Bearer tokens are compact JWTs, HS256 under the stage's secret, signed and verified with jose.
import { errors, jwtVerify, SignJWT } from 'jose';

/** The `iss` of every token this service issues. */
const TOKEN_ISSUER = 'pet-api';
/** The only algorithm a token may name: HMAC-SHA256 under the stage's secret. */
const TOKEN_ALGORITHM = 'HS256';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** A short-lived bearer credential for one account, signed with the stage's secret. */
export async function issueToken(
  secret: Uint8Array,
  accountId: string,
  now: Date,
  ttlSeconds: number,
): Promise<IssuedToken> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(secret);
  return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
}

export interface VerifiedToken {
  accountId: string;
  /** The token's `exp`, in milliseconds since the epoch. */
  expiresAtMs: number;
}

/** Longer than any token this service issues (about 200 characters); longer ones are not even decoded. */
export const MAX_TOKEN_LENGTH = 1024;

/**
 * The shape of every token this service issues: three unpadded base64url segments, the last the 32-byte HMAC in its
 * one canonical spelling (43 characters; the last carries two bits that decoding ignores, so they must be zero).
 */
const ISSUED_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]{42}[AEIMQUYcgkosw048]$/;

/**
 * The account a valid token was issued to and when it expires, or undefined. jose checks the signature, that the
 * header names HS256 exactly, `iss`, that `sub` and `exp` are present, `exp` in the future, `nbf` not, and the claims'
 * types. On top, a token must have the shape of those this service issues, no `crit` header (jose accepts
 * `crit: ["b64"]`), a string `sub` and a finite `exp`: a correctly signed token without them was never issued here.
 */
export async function verifyToken(secret: Uint8Array, token: string, now: Date): Promise<VerifiedToken | undefined> {
  if (token.length > MAX_TOKEN_LENGTH || !ISSUED_SHAPE.test(token)) return undefined;
  try {
    const { payload, protectedHeader } = await jwtVerify(token, secret, {
      issuer: TOKEN_ISSUER,
      algorithms: [TOKEN_ALGORITHM],
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    if ('crit' in protectedHeader || typeof payload.sub !== 'string' || !Number.isFinite(payload.exp)) return undefined;
    return { accountId: payload.sub, expiresAtMs: payload.exp! * 1000 };
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}
