// Picks the secret cipher the configuration names (composed by the webhook routes and the deliverer), and the
// deliverer's cache of decrypted secrets.
import { KMSClient } from '@aws-sdk/client-kms';
import type { Config } from '../../config.ts';
import { traced } from '../../observability.ts';
import type { SecretCipher } from '../../ports/secret-cipher.ts';
import { kmsSecretCipher } from './aws.ts';
import { localSecretCipher } from './local.ts';

let kms: KMSClient | undefined;

/** The local key when one is configured (as with the token secret), KMS otherwise. */
export function secretCipherFor(config: Pick<Config, 'webhookSecretKey' | 'webhookKmsKeyId'>): SecretCipher {
  if (config.webhookSecretKey) return localSecretCipher(config.webhookSecretKey);
  if (!config.webhookKmsKeyId) throw new Error('neither WEBHOOK_SECRET_KEY nor WEBHOOK_KMS_KEY_ID is configured');
  kms ??= traced(new KMSClient({}));
  return kmsSecretCipher(kms, config.webhookKmsKeyId);
}

/** Enough for every endpoint a busy worker container sees; each entry is a few hundred bytes. */
const DECRYPTED_SECRETS_KEPT = 1000;

/**
 * Remembers decrypted secrets for the life of a warm container (one KMS call per endpoint, not per attempt), keyed by
 * the endpoint and the ciphertext itself: a rotated secret has a new ciphertext, so it is decrypted and used at once.
 * Least recently used entries go first.
 */
export function cachingDecrypts(cipher: SecretCipher, maxEntries = DECRYPTED_SECRETS_KEPT): SecretCipher {
  const plain = new Map<string, Promise<string>>();
  return {
    encrypt: (secret, webhookId) => cipher.encrypt(secret, webhookId),
    decrypt(stored, webhookId) {
      const key = `${webhookId}\n${stored}`;
      const known = plain.get(key);
      if (known) {
        plain.delete(key);
        plain.set(key, known);
        return known;
      }
      const decrypted = cipher.decrypt(stored, webhookId);
      plain.set(key, decrypted);
      // A failed decryption is not remembered: the next attempt asks again.
      decrypted.catch(() => plain.delete(key));
      if (plain.size > maxEntries) plain.delete(plain.keys().next().value!);
      return decrypted;
    },
  };
}
