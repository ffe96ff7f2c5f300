import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumers, queues, visibilityTimeoutSeconds, type QueueId } from '../../../events/consumers.ts';

const EVENTS = join(import.meta.dirname, '..', '..', '..', 'events');

describe('the consumer table', () => {
  it('has unique ids and entries, each a module below events/ exporting a handler', async () => {
    expect(new Set(consumers.map((c) => c.id)).size).toBe(consumers.length);
    expect(new Set(consumers.map((c) => c.entry)).size).toBe(consumers.length);
    for (const consumer of consumers) {
      const mod = (await import(join(EVENTS, `${consumer.entry}.ts`))) as { handler?: unknown };
      expect(typeof mod.handler, consumer.id).toBe('function');
    }
  });

  it('gives every queue exactly one consumer, and sends only to queues it declares', () => {
    for (const queue of Object.keys(queues) as QueueId[])
      expect(
        consumers.filter((c) => 'queue' in c.source && c.source.queue === queue).map((c) => c.id),
        queue,
      ).toHaveLength(1);
    for (const consumer of consumers)
      for (const target of ('sendsTo' in consumer.access ? consumer.access.sendsTo : []) as string[])
        expect(Object.keys(queues), consumer.id).toContain(target);
  });

  it('keeps batches within what Lambda accepts and messages invisible for six function timeouts', () => {
    for (const consumer of consumers) {
      const max = 'stream' in consumer.source ? 10_000 : 10;
      expect(consumer.batchSize, consumer.id).toBeGreaterThanOrEqual(1);
      expect(consumer.batchSize, consumer.id).toBeLessThanOrEqual(max);
      expect(consumer.timeoutSeconds, consumer.id).toBeLessThanOrEqual(900);
    }
    expect(visibilityTimeoutSeconds('webhookDeliveries')).toBe(180);
    expect(visibilityTimeoutSeconds('uploads')).toBe(720);
  });
});
