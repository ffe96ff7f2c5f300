// The consumer shape of every "object created" processor: S3 notifications arrive on a queue and each created object
// is handed to the core, through the one per-message wrapper (shared/events/consumer.ts), one message at a time.
import * as z from 'zod/mini';
import { type Deps, getDeps } from '../deps.ts';
import { queueConsumer } from './consumer.ts';

/** S3's notification (its test event has no Records). */
const s3Notification = z.object({
  Records: z.optional(
    z.array(
      z.object({
        eventName: z.optional(z.string()),
        s3: z.object({ bucket: z.object({ name: z.string() }), object: z.object({ key: z.string() }) }),
      }),
    ),
  ),
});

export function objectCreatedConsumer<D extends Pick<Deps, 'log'> = Deps>(
  id: string,
  handle: (deps: D, key: string, bucket: string) => Promise<void>,
  deps: () => D = getDeps as unknown as () => D,
) {
  return queueConsumer({
    id,
    message: s3Notification,
    // One object in memory at a time.
    concurrency: 'sequential',
    deps,
    handle: async (notification, resolved) => {
      for (const record of notification.Records ?? []) {
        if (!record.eventName?.startsWith('ObjectCreated')) continue;
        const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
        await handle(resolved, key, record.s3.bucket.name);
      }
    },
  });
}
