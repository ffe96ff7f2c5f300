// Local mode: AES-256-GCM with a key given as base64, the endpoint's id as additional data (it binds the ciphertext
// to its endpoint as the KMS encryption context does).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../ports/secret-cipher.ts';

const AES_KEY_BYTES = 32;
const GCM_IV_BYTES = 12;

/** Stored as `<iv>.<tag>.<ciphertext>`, each base64url. */
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
