import type { Deps } from '../deps.ts';
import { cachedSecret } from '../aws/secrets.ts';

const signingKey = cachedSecret('token signing secret');

/** The key bearer tokens are signed with: TOKEN_SECRET locally, the stage's Secrets Manager secret deployed. */
export async function getTokenSecret(
  deps: Pick<Deps, 'config' | 'now'>,
  fetchFn: typeof fetch = fetch,
): Promise<Uint8Array> {
  const { tokenSecret, tokenSecretArn } = deps.config;
  if (tokenSecret) return new TextEncoder().encode(tokenSecret);
  if (!tokenSecretArn) throw new Error('neither TOKEN_SECRET nor TOKEN_SECRET_ARN is configured');
  return new TextEncoder().encode(await signingKey.read(deps, tokenSecretArn, fetchFn));
}

export function clearTokenSecretCache(): void {
  signingKey.clear();
}
