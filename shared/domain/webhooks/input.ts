// Request bodies and parameters of the webhook routes. URL rules that depend on the deployment (https only, no
// private addresses) are checked by the domain, which knows the configuration.
import * as z from 'zod/mini';
import { integer, isoTime, MAX_CURSOR_LENGTH, text } from '../../schema/params.ts';

const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION_LENGTH = 500;
const MAX_ENABLED_EVENTS = 50;
const MAX_EVENT_NAME_LENGTH = 100;

/** Names are kept as given (unknown ones are accepted and never fire); repeats are dropped. */
const enabledEvents = z.pipe(
  z.array(text({ max: MAX_EVENT_NAME_LENGTH })).check(z.minLength(1), z.maxLength(MAX_ENABLED_EVENTS)),
  z.transform((names: string[]) => [...new Set(names)]),
);

export const createWebhookBody = z.strictObject({
  url: text({ max: MAX_URL_LENGTH }),
  description: z._default(text({ min: 0, max: MAX_DESCRIPTION_LENGTH, lineBreaks: true }), ''),
  enabled_events: enabledEvents,
});
export type NewWebhook = z.output<typeof createWebhookBody>;

export const webhookIdParams = z.object({ id: text({ max: 100 }) });
export const webhookEventParams = z.object({ id: text({ max: 100 }), eventId: text({ max: 100 }) });

/** The attempt log, newest first, narrowed by outcome, event type and time, continued with `cursor`. */
export const deliveryLogQuery = z
  .strictObject({
    limit: z._default(integer({ min: 1, max: 100 }), 10),
    status: z.optional(z.enum(['succeeded', 'failed'])),
    event_type: z.optional(text({ max: MAX_EVENT_NAME_LENGTH })),
    since: z.optional(isoTime),
    until: z.optional(isoTime),
    cursor: z.optional(text({ max: MAX_CURSOR_LENGTH })),
  })
  .check(
    z.refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, {
      message: 'since must not be after until',
      path: ['since'],
    }),
  );
export type DeliveryLogQuery = z.output<typeof deliveryLogQuery>;

/** A recovery's window and, for a disabled endpoint's history, the endpoint that now takes its place. */
export const recoverBody = z
  .strictObject({
    since: isoTime,
    until: z.optional(isoTime),
    to_endpoint_id: z.optional(text({ max: 100 })),
  })
  .check(
    z.refine((b) => b.until === undefined || b.since < b.until, {
      message: 'since must be before until',
      path: ['since'],
    }),
  );
export type RecoverRequest = z.output<typeof recoverBody>;

export const recoveryParams = z.object({ id: text({ max: 100 }), recoveryId: text({ max: 100 }) });
