import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';

/** Reads the events queue until `count` events of the account arrived or the wait is over. */
async function eventsOf(sqs: SQSClient, queueUrl: string, accountId: string, count: number, waitMs = 4000) {
  const found: { id: string; type: string; resource: Record<string, unknown> }[] = [];
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && found.length < count) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    for (const m of Messages) {
      const event = JSON.parse(m.Body!);
      if (event.account_id === accountId) found.push(event);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return found;
}

describe('events from committed writes (DynamoDB Local stream → router → events queue)', () => {
  let sqs: SQSClient;
  let queueUrl: string;
  beforeAll(() => {
    const env = inject('localEnv');
    sqs = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    queueUrl = env.EVENTS_QUEUE_URL!;
  });

  it('emits exactly one vote.created and one favourite.created per committed write, and nothing for a refused one', async () => {
    const account = await createAccount();
    const [image] = (await api('GET', '/images/search?order=ASC&limit=1', { key: account.api_key })).body;
    const vote = await api('POST', '/votes', { key: account.api_key, body: { image_id: image.id, value: 1, sub_id: 'evt' } });
    const favourite = await api('POST', '/favourites', { key: account.api_key, body: { image_id: image.id } });
    const refused = await api('POST', '/votes', { key: account.api_key, body: { image_id: 'no-such-image', value: 1 } });

    const events = await eventsOf(sqs, queueUrl, account.id, 3);

    expect(refused.status).toBe(400);
    expect(events.map((e) => e.type).sort()).toEqual(['favourite.created', 'vote.created']);
    expect(events.find((e) => e.type === 'vote.created')!.resource).toMatchObject({ id: vote.body.id, image_id: image.id, value: 1, sub_id: 'evt' });
    expect(events.find((e) => e.type === 'favourite.created')!.resource).toMatchObject({ id: favourite.body.id });
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
  });
});
