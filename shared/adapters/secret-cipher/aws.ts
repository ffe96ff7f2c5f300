// AWS KMS: the endpoint's id is the encryption context, so a ciphertext decrypts only for its own endpoint.
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretCipher } from '../../ports/secret-cipher.ts';

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
