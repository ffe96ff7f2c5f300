// For tests: no cryptography, but the port's rule kept: a stored secret opens only for the endpoint it was sealed
// for. Each decryption asked is recorded by endpoint, so a test sees how often the provider was called.
import type { SecretCipher } from '../../ports/secret-cipher.ts';

export interface FakeSecretCipher extends SecretCipher {
  /** The endpoint of every decryption asked, in order. */
  decrypted: string[];
}

export function fakeSecretCipher(): FakeSecretCipher {
  const decrypted: string[] = [];
  return {
    decrypted,
    encrypt: async (plain, webhookId) =>
      `fake:${Buffer.from(JSON.stringify([webhookId, plain])).toString('base64url')}`,
    async decrypt(stored, webhookId) {
      decrypted.push(webhookId);
      const [sealedFor, plain] = JSON.parse(Buffer.from(stored.replace(/^fake:/, ''), 'base64url').toString());
      if (sealedFor !== webhookId) throw new Error(`secret sealed for endpoint ${sealedFor}, not ${webhookId}`);
      return plain;
    },
  };
}
