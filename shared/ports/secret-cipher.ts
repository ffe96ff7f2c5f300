// Port: the cipher of webhook signing secrets. Adapters (shared/adapters/secret-cipher/): AWS KMS deployed (aws.ts),
// AES-256-GCM with a local key under npm start (local.ts), fake.ts for tests; index.ts picks one from the configuration.

/**
 * Signing secrets are stored encrypted, bound to their endpoint: a ciphertext copied onto another endpoint's item
 * does not decrypt there.
 */
export interface SecretCipher {
  encrypt(plain: string, webhookId: string): Promise<string>;
  decrypt(stored: string, webhookId: string): Promise<string>;
}
