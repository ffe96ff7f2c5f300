import { createHash } from 'node:crypto';

const API_KEY_PREFIX = 'live_';

/** A new plain API key: shown once, stored only as its SHA-256 hash. */
export const generateApiKey = (randomBytes: (size: number) => Buffer) =>
  API_KEY_PREFIX + randomBytes(30).toString('base64url');

export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest('hex');
