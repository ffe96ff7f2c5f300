import type { Deps } from '../deps.ts';

// Deployed, the secret lives in Secrets Manager and is read through the AWS Parameters and Secrets
// Lambda Extension (a localhost HTTP cache), so no Secrets Manager SDK client enters any bundle.
const EXTENSION_PORT = 2773;
const CACHE_MS = 5 * 60 * 1000;

let cached: { secret: Uint8Array; until: number } | undefined;

export async function getTokenSecret(
  deps: Pick<Deps, 'config' | 'now'>,
  fetchFn: typeof fetch = fetch,
): Promise<Uint8Array> {
  const { tokenSecret, tokenSecretArn } = deps.config;
  if (tokenSecret) return new TextEncoder().encode(tokenSecret);
  if (!tokenSecretArn) throw new Error('neither TOKEN_SECRET nor TOKEN_SECRET_ARN is configured');
  const nowMs = deps.now().getTime();
  if (cached && cached.until > nowMs) return cached.secret;
  const url = `http://localhost:${EXTENSION_PORT}/secretsmanager/get?secretId=${encodeURIComponent(tokenSecretArn)}`;
  const response = await fetchFn(url, {
    headers: { 'X-Aws-Parameters-Secrets-Token': deps.config.awsSessionToken ?? '' },
  });
  if (!response.ok) throw new Error(`secrets extension answered ${response.status}`);
  const { SecretString } = (await response.json()) as { SecretString?: string };
  if (!SecretString) throw new Error('token signing secret is empty');
  cached = { secret: new TextEncoder().encode(SecretString), until: nowMs + CACHE_MS };
  return cached.secret;
}

export function clearTokenSecretCache(): void {
  cached = undefined;
}
