// The environment the local service runs its handlers and consumers with: the local stage's own settings (the
// local-only switches shared/config.ts refuses anywhere else) over the emulators' endpoints.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_STAGE } from '../../shared/config.ts';
import { serviceName } from '../../shared/observability.ts';
import { LOCAL_MEDIA_BUCKET } from './media.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Where LOCAL_PERSIST=1 keeps the table, the queues and bucket, the webhook secret key and the stream checkpoints. */
export const persistDir = () => process.env.LOCAL_DATA_DIR ?? join(ROOT, '.local');

/** The key that encrypts webhook signing secrets locally: kept with the data when it persists, else per run. */
function localWebhookKey(persist: boolean): string {
  const file = join(persistDir(), 'webhook-secret-key');
  if (!persist) return randomBytes(32).toString('base64');
  if (!existsSync(file)) {
    mkdirSync(persistDir(), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * The environment `npm start` runs with: the emulators' (`stack.env`) and the local stage's settings over them; media
 * URLs name the media front (the CDN's stand-in).
 */
export function localServiceEnvironment(
  stack: { env: Record<string, string>; mediaBaseUrl: string },
  persist: boolean,
): Record<string, string> {
  return {
    ...stack.env,
    STAGE: LOCAL_STAGE,
    // Log lines and metrics name the service as deployed stages name theirs.
    POWERTOOLS_SERVICE_NAME: serviceName(LOCAL_STAGE),
    // One readable line per log entry (requests, consumers' activity) instead of Lambda's JSON; no EMF metrics.
    LOG_FORMAT: process.env.LOG_FORMAT ?? 'readable',
    POWERTOOLS_METRICS_DISABLED: 'true',
    MEDIA_BASE_URL: stack.mediaBaseUrl,
    MEDIA_BUCKET: LOCAL_MEDIA_BUCKET,
    // Local receivers live on this machine; deployed, webhook URLs must be public https.
    ALLOW_LOOPBACK_WEBHOOKS: 'true',
    WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? localWebhookKey(persist),
    OWNER_MAIL_OUTBOX_DIR: process.env.OWNER_MAIL_OUTBOX_DIR ?? join(ROOT, '.local', 'outbox'),
    // A fresh signing secret per run: bearer tokens do not outlive the local process.
    TOKEN_SECRET: process.env.TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
  };
}
