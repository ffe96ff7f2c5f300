import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { callbackLogger } from '../../../shared/log.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';
import { QueueRefusal } from '../../../shared/aws/sqs-text.ts';
import { queueConsumer } from '../../../shared/events/consumer.ts';

const sqsEvent = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, n) => ({ messageId: `m${n + 1}`, body })) }) as unknown as SQSEvent;

type Park = (message: unknown, reason: unknown) => Promise<void>;

function consumerWith(
  handle: (message: { n: number }) => Promise<void>,
  { concurrency, park }: { concurrency?: 'sequential'; park?: Park } = {},
) {
  const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const log = callbackLogger((level, message, fields) => level === 'ERROR' && logged.push({ message, fields }));
  const handler = queueConsumer({
    id: 'test.consumer',
    message: z.object({ n: z.number() }),
    deps: () => ({ log }),
    handle: (message) => handle(message),
    ...(concurrency && { concurrency }),
    ...(park && { deadLetter: (_deps: unknown, message: unknown, reason: unknown) => park(message, reason) }),
  });
  return { handler, logged };
}

describe('the per-message consumer wrapper', () => {
  it('hands each valid message to the core and reports no failures', async () => {
    const seen: number[] = [];
    const { handler } = consumerWith(async ({ n }) => {
      seen.push(n);
    });
    expect(await handler(sqsEvent('{"n":1}', '{"n":2}'))).toEqual({ batchItemFailures: [] });
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('reports a message whose work failed for a passing reason, and only that one, for SQS to hand back', async () => {
    const { handler, logged } = consumerWith(async ({ n }) => {
      if (n === 2) throw new Error('DynamoDB throttled');
      if (n === 3) throw new AppError(503, 'provider down');
    });
    expect(await handler(sqsEvent('{"n":1}', '{"n":2}', '{"n":3}'))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }],
    });
    expect(logged.map((l) => l.fields?.messageId)).toEqual(['m2', 'm3']);
  });

  it('drops malformed messages and permanent refusals, logged as PermanentFailure with the consumer id', async () => {
    const { handler, logged } = consumerWith(async () => {
      throw badRequest('the photo is not an image', { code: 'invalid_image' });
    });
    expect(await handler(sqsEvent('not json', '{"n":"one"}', '{"n":1}'))).toEqual({ batchItemFailures: [] });
    expect(logged).toHaveLength(3);
    for (const entry of logged) {
      expect(entry.message).toMatch(/^PermanentFailure: /);
      expect(entry.fields).toMatchObject({ consumer: 'test.consumer' });
    }
    expect(logged[0]!.fields).toMatchObject({ messageId: 'm1', problem: 'not JSON' });
    expect(logged[1]!.fields!.problem).toMatch(/^n: /);
    expect(logged[2]!.fields).toMatchObject({ messageId: 'm3', code: 'invalid_image' });
  });

  it('runs messages one after another when asked to', async () => {
    let running = 0;
    let most = 0;
    const { handler } = consumerWith(
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
      { concurrency: 'sequential' },
    );
    await handler(sqsEvent('{"n":1}', '{"n":2}', '{"n":3}'));
    expect(most).toBe(1);
  });

  it('keys every log line of a message with the consumer, the message, the event it is about and its attempt', async () => {
    const lines: { message: string; keys: Record<string, unknown> }[] = [];
    const handler = queueConsumer({
      id: 'test.consumer',
      message: z.object({ event_id: z.optional(z.string()), attempt: z.optional(z.number()) }),
      deps: () => ({ log: callbackLogger((_level, message, _fields, keys) => lines.push({ message, keys })) }),
      handle: async (_message, deps) => deps.log.info('working'),
    });
    const event = sqsEvent('{"event_id":"evt-1","attempt":2}', '{}');
    (event.Records[1] as { attributes: object }).attributes = { ApproximateReceiveCount: '3' };

    await handler(event);

    expect(lines.filter((l) => l.message === 'working').map((l) => l.keys)).toEqual([
      { consumer: 'test.consumer', message_id: 'm1', event_id: 'evt-1', attempt: 2 },
      { consumer: 'test.consumer', message_id: 'm2', attempt: 3 },
    ]);
    expect(lines.filter((l) => l.message === 'message handled')).toHaveLength(2);
  });

  describe('a message whose own sends the queue refused for good', () => {
    const refusal = new QueueRefusal('InvalidMessageContents', 'Invalid characters found.');
    const refusingConsumer = (park?: Park) =>
      consumerWith(
        async ({ n }) => {
          if (n === 2) throw refusal;
        },
        { ...(park && { park }) },
      );

    it('goes to the dead-letter queue at once, as received, with the reason; logged with its code and message', async () => {
      const parked: unknown[][] = [];
      const { handler, logged } = refusingConsumer(async (message, reason) => {
        parked.push([message, reason]);
      });

      expect(await handler(sqsEvent('{"n":1}', '{"n":2,"extra":"kept"}'))).toEqual({ batchItemFailures: [] });

      expect(parked).toEqual([
        [
          { n: 2, extra: 'kept' },
          { consumer: 'test.consumer', refusal },
        ],
      ]);
      expect(logged).toEqual([
        {
          message: expect.stringContaining('dead-lettered'),
          fields: expect.objectContaining({
            consumer: 'test.consumer',
            messageId: 'm2',
            code: 'InvalidMessageContents',
            reason: 'Invalid characters found.',
          }),
        },
      ]);
    });

    it('is handed back when the dead-letter queue cannot be reached, or the consumer has none', async () => {
      const unreachable = refusingConsumer(async () => {
        throw new Error('network down');
      });
      expect(await unreachable.handler(sqsEvent('{"n":2}'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
      expect(unreachable.logged[0]!.fields).toMatchObject({ code: 'InvalidMessageContents' });

      const withoutDlq = refusingConsumer();
      expect(await withoutDlq.handler(sqsEvent('{"n":2}'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    });
  });
});
