import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'pet-api';
const ALGORITHM = 'HS256';

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
  const accessToken = await new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(secret);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ttlSeconds };
}

export interface VerifiedToken {
  accountId: string;
  /** The token's `exp`, in milliseconds since the epoch. */
  expiresAtMs: number;
}

/** Longer than any token this service issues (about 200 characters); longer ones are not even decoded. */
export const MAX_TOKEN_LENGTH = 1024;

/**
 * The account a valid token was issued to and when it expires, or undefined. A token without `exp` or `sub` is
 * refused even when its signature is right: every credential this service accepts runs out.
 */
export async function verifyToken(secret: Uint8Array, token: string, now: Date): Promise<VerifiedToken | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      algorithms: [ALGORITHM],
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    return { accountId: payload.sub!, expiresAtMs: payload.exp! * 1000 };
  } catch {
    return undefined;
  }
}
