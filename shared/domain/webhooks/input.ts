// Request bodies and parameters of the webhook routes. URL rules that depend on the deployment (https only, no
// private addresses) are checked by the domain, which knows the configuration.
import * as z from 'zod/mini';
import { pageParam } from '../../schema/paging.ts';
import { integer, text } from '../../schema/params.ts';

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

/** The attempt log is page-style, newest first. */
export const deliveryLogQuery = z.strictObject({
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  page: pageParam,
});
