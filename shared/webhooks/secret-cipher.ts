import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { Config } from '../config.ts';
import { traced } from '../observability.ts';

/**
 * Signing secrets are stored encrypted, bound to their endpoint: a ciphertext copied onto another endpoint's item
 * does not decrypt there (KMS encryption context deployed, AES-GCM additional data locally).
 */
export interface SecretCipher {
  encrypt(plain: string, webhookId: string): Promise<string>;
  decrypt(stored: string, webhookId: string): Promise<string>;
}

const CONTEXT_KEY = 'webhook_id';

export function kmsSecretCipher(client: KMSClient, keyId: string): SecretCipher {
  return {
    async encrypt(plain, webhookId) {
      const { CiphertextBlob } = await client.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plain, 'utf8'),
          EncryptionContext: { [CONTEXT_KEY]: webhookId },
        }),
      );
      if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
      return Buffer.from(CiphertextBlob).toString('base64');
    },
    async decrypt(stored, webhookId) {
      const { Plaintext } = await client.send(
        // Naming the key makes KMS refuse a ciphertext of any other key instead of silently using it.
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(stored, 'base64'),
          EncryptionContext: { [CONTEXT_KEY]: webhookId },
        }),
      );
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Buffer.from(Plaintext).toString('utf8');
    },
  };
}

const AES_KEY_BYTES = 32;
const GCM_IV_BYTES = 12;

/** Local mode: AES-256-GCM with a key given as base64; stored as `<iv>.<tag>.<ciphertext>`, each base64url. */
export function localSecretCipher(base64Key: string): SecretCipher {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== AES_KEY_BYTES)
    throw new Error(`the local webhook secret key must be ${AES_KEY_BYTES} bytes of base64, got ${key.length}`);
  return {
    async encrypt(plain, webhookId) {
      const iv = randomBytes(GCM_IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(webhookId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
    },
    async decrypt(stored, webhookId) {
      const [iv, tag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !ciphertext) throw new Error('malformed local webhook secret ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(webhookId, 'utf8')).setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    },
  };
}

let kms: KMSClient | undefined;

/** The local key when one is configured (as with the token secret), KMS otherwise. */
export function secretCipher(config: Pick<Config, 'webhookSecretKey' | 'webhookKmsKeyId'>): SecretCipher {
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
