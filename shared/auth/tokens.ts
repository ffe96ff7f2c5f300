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

/** The account id a valid, unexpired token was issued to, or undefined. */
export async function verifyToken(secret: Uint8Array, token: string, now: Date): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: [ALGORITHM], currentDate: now });
    return payload.sub;
  } catch {
    return undefined;
  }
}
