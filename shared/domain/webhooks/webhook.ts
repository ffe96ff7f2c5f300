// The webhook endpoint as stored and as shown: item schema, limits and presenter.
import * as z from 'zod/mini';
import type { Deps } from '../../deps.ts';

/** Spec: five endpoints per account, disabled ones included. */
export const WEBHOOK_LIMIT = 5;

/** Spec: the endpoint is disabled after this many failed attempts in a row. */
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 10;

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;

export const webhookItemSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  url: z.string(),
  description: z.string(),
  enabled_events: z.array(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  disabled_at: z.optional(z.string()),
  disabled_reason: z.optional(z.string()),
  consecutive_failures: z._default(z.number(), 0),
  /** Absent on endpoints created before signing existed: they are sent unsigned until their secret is rotated. */
  encrypted_secret: z.optional(z.string()),
});

export type WebhookItem = z.infer<typeof webhookItemSchema>;

/** The endpoint as the API shows it; the secret is returned only by create and rotate, never read back. */
export const presentWebhook = (w: WebhookItem) => ({
  id: w.id,
  url: w.url,
  description: w.description,
  enabled_events: w.enabled_events,
  status: w.status,
  created_at: w.created_at,
  updated_at: w.updated_at,
  ...(w.disabled_at && { disabled_at: w.disabled_at }),
  ...(w.disabled_reason && { disabled_reason: w.disabled_reason }),
  consecutive_failures: w.consecutive_failures,
});

export const reachedDisableThreshold = (consecutiveFailures: number) =>
  consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES;

export type WebhookDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;
