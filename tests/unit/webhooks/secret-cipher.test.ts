import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { cachingDecrypts, secretCipherFor } from '../../../shared/adapters/secret-cipher/index.ts';
import { kmsSecretCipher } from '../../../shared/adapters/secret-cipher/aws.ts';
import { fakeSecretCipher } from '../../../shared/adapters/secret-cipher/fake.ts';
import { localSecretCipher } from '../../../shared/adapters/secret-cipher/local.ts';

const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

describe('the local cipher (AES-256-GCM)', () => {
  const cipher = localSecretCipher(randomBytes(32).toString('base64'));

  it('decrypts what it encrypted, and never stores the secret in clear', async () => {
    const stored = await cipher.encrypt(SECRET, 'wh-1');

    expect(stored).not.toContain(SECRET);
    await expect(cipher.decrypt(stored, 'wh-1')).resolves.toBe(SECRET);
  });

  it('uses a fresh IV each time', async () => {
    expect(await cipher.encrypt(SECRET, 'wh-1')).not.toBe(await cipher.encrypt(SECRET, 'wh-1'));
  });

  it('refuses a ciphertext moved to another endpoint, tampered with, or made with another key', async () => {
    const stored = await cipher.encrypt(SECRET, 'wh-1');
    const [iv, tag, body] = stored.split('.');
    // Flip every bit of the last ciphertext byte: replacing characters could leave the bytes unchanged.
    const flipped = Buffer.from(body!, 'base64url');
    flipped[flipped.length - 1]! ^= 0xff;
    const tampered = [iv, tag, flipped.toString('base64url')].join('.');

    await expect(cipher.decrypt(stored, 'wh-2')).rejects.toThrow();
    await expect(cipher.decrypt(tampered, 'wh-1')).rejects.toThrow();
    await expect(localSecretCipher(randomBytes(32).toString('base64')).decrypt(stored, 'wh-1')).rejects.toThrow();
  });

  it('needs a 32-byte key', () => {
    expect(() => localSecretCipher(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});

describe('the KMS cipher', () => {
  const kms = mockClient(KMSClient);
  beforeEach(() => kms.reset());

  it('encrypts with the configured key and the endpoint id as encryption context', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('ciphertext') });

    const stored = await kmsSecretCipher(new KMSClient({ region: 'us-east-1' }), 'alias/webhooks').encrypt(
      SECRET,
      'wh-1',
    );

    expect(stored).toBe(Buffer.from('ciphertext').toString('base64'));
    const input = kms.commandCalls(EncryptCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ KeyId: 'alias/webhooks', EncryptionContext: { webhook_id: 'wh-1' } });
    expect(Buffer.from(input.Plaintext!).toString('utf8')).toBe(SECRET);
  });

  it('decrypts with the same key and context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from(SECRET) });

    const plain = await kmsSecretCipher(new KMSClient({ region: 'us-east-1' }), 'alias/webhooks').decrypt(
      Buffer.from('ciphertext').toString('base64'),
      'wh-1',
    );

    expect(plain).toBe(SECRET);
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toMatchObject({
      KeyId: 'alias/webhooks',
      EncryptionContext: { webhook_id: 'wh-1' },
    });
  });
});

describe('choosing the cipher', () => {
  it('prefers the local key and refuses to run without any', async () => {
    const key = randomBytes(32).toString('base64');
    const local = secretCipherFor({ webhookSecretKey: key, webhookKmsKeyId: 'alias/webhooks' });

    await expect(localSecretCipher(key).decrypt(await local.encrypt(SECRET, 'wh-1'), 'wh-1')).resolves.toBe(SECRET);
    expect(() => secretCipherFor({ webhookSecretKey: undefined, webhookKmsKeyId: undefined })).toThrow(
      'WEBHOOK_KMS_KEY_ID',
    );
  });
});

describe('remembering decrypted secrets in a warm container', () => {
  const counting = () => {
    const inner = fakeSecretCipher();
    return { inner, calls: inner.decrypted, cipher: cachingDecrypts(inner, 2) };
  };

  it('decrypts a ciphertext once, however many attempts use it at once or later', async () => {
    const { inner, calls, cipher } = counting();
    const stored = await inner.encrypt(SECRET, 'wh-1');

    const plain = await Promise.all([1, 2, 3].map(() => cipher.decrypt(stored, 'wh-1')));
    await cipher.decrypt(stored, 'wh-1');

    expect(plain).toEqual([SECRET, SECRET, SECRET]);
    expect(calls).toEqual(['wh-1']);
  });

  it('uses a rotated secret at once: its new ciphertext is a new entry', async () => {
    const { inner, cipher } = counting();
    await cipher.decrypt(await inner.encrypt(SECRET, 'wh-1'), 'wh-1');

    await expect(cipher.decrypt(await inner.encrypt('whsec_rotated', 'wh-1'), 'wh-1')).resolves.toBe('whsec_rotated');
  });

  it('keeps the ciphertext bound to its endpoint and forgets failures', async () => {
    const { inner, calls, cipher } = counting();
    const stored = await inner.encrypt(SECRET, 'wh-1');
    await cipher.decrypt(stored, 'wh-1');

    await expect(cipher.decrypt(stored, 'wh-2')).rejects.toThrow();
    await expect(cipher.decrypt(stored, 'wh-2')).rejects.toThrow();
    expect(calls).toEqual(['wh-1', 'wh-2', 'wh-2']);
  });

  it('keeps at most its bound, dropping the least recently used', async () => {
    const { inner, calls, cipher } = counting();
    const [a, b, c] = await Promise.all(['wh-a', 'wh-b', 'wh-c'].map((id) => inner.encrypt(SECRET, id)));
    await cipher.decrypt(a!, 'wh-a');
    await cipher.decrypt(b!, 'wh-b');
    await cipher.decrypt(a!, 'wh-a'); // a is now the most recent
    await cipher.decrypt(c!, 'wh-c'); // b goes

    await cipher.decrypt(a!, 'wh-a');
    await cipher.decrypt(b!, 'wh-b');
    expect(calls).toEqual(['wh-a', 'wh-b', 'wh-c', 'wh-b']);
  });
});
