import type { Deps } from '../deps.ts';

// Deployed, secrets live in Secrets Manager and are read through the AWS Parameters and Secrets Lambda Extension (a
// localhost HTTP cache), so no Secrets Manager SDK client enters any bundle.
const EXTENSION_PORT = 2773;
const CACHE_MS = 5 * 60 * 1000;

/**
 * A secret's current string, read through the extension at most once per five minutes per container: a warm
 * function sees a new value within five minutes of it being put, and a request never waits on Secrets Manager.
 */
export function cachedSecret(what: string) {
  let cached: { value: string; until: number } | undefined;
  return {
    async read(deps: Pick<Deps, 'config' | 'now'>, secretArn: string, fetchFn: typeof fetch = fetch): Promise<string> {
      const nowMs = deps.now().getTime();
      if (cached && cached.until > nowMs) return cached.value;
      const url = `http://localhost:${EXTENSION_PORT}/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}`;
      const response = await fetchFn(url, {
        headers: { 'X-Aws-Parameters-Secrets-Token': deps.config.awsSessionToken ?? '' },
      });
      if (!response.ok) throw new Error(`secrets extension answered ${response.status} for the ${what}`);
      const { SecretString } = (await response.json()) as { SecretString?: string };
      if (!SecretString) throw new Error(`the ${what} is empty`);
      cached = { value: SecretString, until: nowMs + CACHE_MS };
      return SecretString;
    },
    clear(): void {
      cached = undefined;
    },
  };
}
