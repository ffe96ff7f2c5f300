// Whatever characters an event's strings hold, the event reaches its receivers: every message the service queues is
// written queue-safe (shared/aws/sqs.ts), so neither SQS's character rule nor the local queue's stricter one refuses
// it. End to end on the local stack, and the sending helper itself on a queue of each kind the consumer table declares.
import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { queues } from '../../events/consumers.ts';
import { sendMessage, sendMessageBatches } from '../../shared/aws/sqs.ts';
import { QueueRefusal } from '../../shared/aws/sqs-text.ts';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { api, createAccount, subscribe } from '../support/api-client.ts';
import { CHARACTER_CLASSES } from '../support/queue-characters.ts';
import { startReceiver } from '../support/receiver.ts';

const env = inject('localEnv');
const sqs = new SQSClient({
  endpoint: env.AWS_ENDPOINT_URL_SQS,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(() => sqs.destroy());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DOG = 'p-abc123-🐶';

describe('events whose strings hold astral characters', () => {
  it('delivers a vote and a favourite with sub_id "p-abc123-🐶" exactly once each, signed, the character intact', async () => {
    const account = await createAccount();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await subscribe(account.api_key, receiver.url, ['vote.created', 'favourite.created']);
    const image = (await api('GET', '/images/search?order=ASC&limit=1', { key: account.api_key })).body[0].id;

    const sent = [];
    for (const sub_id of ['p-abc123-before', DOG, 'p-abc123-after'])
      sent.push(await api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1, sub_id } }));
    sent.push(await api('POST', '/favourites', { key: account.api_key, body: { image_id: image, sub_id: DOG } }));
    expect(sent.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    await receiver.waitFor(4, 20_000);
    await sleep(1500); // a second copy of anything would show now

    const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body));
    const ids = receiver.received.map((delivery) => String(delivery.headers['x-webhook-id']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(bodies.map((body) => [body._metadata.event_type, body.sub_id]).sort()).toEqual([
      ['favourite.created', DOG],
      ['vote.created', 'p-abc123-after'],
      ['vote.created', 'p-abc123-before'],
      ['vote.created', DOG],
    ]);
    for (const delivery of receiver.received) {
      const check = verifySignature({
        header: String(delivery.headers['x-webhook-signature']),
        rawBody: delivery.body,
        secret: hook.signing_secret,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      expect(check.ok).toBe(true);
    }
    expect(receiver.received.filter((delivery) => delivery.body.includes(DOG))).toHaveLength(2);
  });
});

describe('the sending helper on the local queue', () => {
  const created: string[] = [];
  afterAll(async () => {
    await Promise.all(created.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl }))));
  });

  /** A queue of the test's own named after one of the table's queues, so no consumer takes what is sent. */
  async function queueLike(id: string): Promise<string> {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `queue-chars-${id}-${randomUUID().slice(0, 8)}` }),
    );
    created.push(QueueUrl!);
    return QueueUrl!;
  }

  async function receiveAll(queueUrl: string, count: number): Promise<unknown[]> {
    const bodies: unknown[] = [];
    for (let round = 0; round < 20 && bodies.length < count; round++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      bodies.push(...Messages.map((message) => JSON.parse(message.Body!)));
    }
    return bodies;
  }

  it('the local queue refuses every class but U+2028 as raw text, so what carries them below is the helper', async () => {
    const queueUrl = await queueLike('raw');
    for (const [name, text] of Object.entries(CHARACTER_CLASSES).filter(([name]) => name !== 'U+2028'))
      await expect(
        sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: text })),
        name,
      ).rejects.toMatchObject({ name: expect.stringMatching(/InvalidMessageContents$/) });
  });

  it("answers a message the queue refuses for good (over its size) with a QueueRefusal naming the queue's reason", async () => {
    const queueUrl = await queueLike('too-long');

    const refusal = await sendMessage(sqs, queueUrl, { value: 'x'.repeat(1_048_577) }).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(QueueRefusal);
    expect(refusal).toMatchObject({ code: 'InvalidParameterValue', detail: expect.stringContaining('shorter than') });
  });

  it.each(Object.keys(queues))(
    'carries every class of character through a queue like %s, one by one and in batches, exactly as sent',
    async (id) => {
      const queueUrl = await queueLike(id);
      const values = Object.entries(CHARACTER_CLASSES).map(([name, text]) => ({ name, text, nested: [text] }));

      for (const value of values) await sendMessage(sqs, queueUrl, { value });
      const unsent = await sendMessageBatches(
        sqs,
        queueUrl,
        values.map((value) => ({ value })),
        { onError: () => {} },
      );

      expect(unsent).toEqual([]);
      const received = await receiveAll(queueUrl, values.length * 2);
      const byName = (a: unknown, b: unknown) =>
        (a as { name: string }).name.localeCompare((b as { name: string }).name);
      expect(received.sort(byName)).toEqual([...values, ...values].sort(byName));
    },
  );
});
