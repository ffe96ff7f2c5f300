// Issuing bearer tokens: jose signs them. Its own module, so only POST /auth/token bundles jose; every other route
// verifies tokens with node:crypto (tokens.ts).
import { SignJWT } from 'jose';
import { TOKEN_ALGORITHM, TOKEN_ISSUER } from './tokens.ts';

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
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(secret);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ttlSeconds };
}
