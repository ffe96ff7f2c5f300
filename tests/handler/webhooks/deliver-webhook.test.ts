import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidMessageContents, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryHandler } from '../../../events/webhooks/deliver-webhook.ts';
import type { Config } from '../../../shared/config.ts';
import { postToReceivers } from '../../../shared/domain/webhooks/deliver.ts';
import type { DeliveryJob } from '../../../shared/domain/webhooks/delivery-queue.ts';
import type { NotifyOwner } from '../../../shared/ports/owner-mail.ts';
import { localSecretCipher } from '../../../shared/adapters/secret-cipher/local.ts';
import { verifySignature } from '../../../shared/webhooks/signature.ts';
import {
  aDeliveryJob as job,
  DELIVERIES_DLQ,
  DELIVERIES_QUEUE,
  DELIVERY_NOW as NOW,
  deliverBatch,
  deliveryDeps as depsAround,
  queuedJobs,
  sqsEvent,
  storedEndpoint,
  storedEvent,
} from '../../support/deliveries.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { anAccount, mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { type InMemoryDeliveryStore, inMemoryDeliveryStore } from '../../support/in-memory-delivery-store.ts';
import { CHARACTER_CLASSES } from '../../support/queue-characters.ts';
import { queueRefusingWhatQueuesRefuse } from '../../support/strict-queue.ts';

// The delivery process against a real receiver on 127.0.0.1: what is sent, signed, logged, retried and disabled. How
// a batch shares slots and writes is tested with an in-process receiver and a fake clock (deliver-batch.test.ts).
const NOW_SECONDS = NOW.getTime() / 1000;
// Long enough for a loaded machine running with coverage; only the no-reply test waits for it.
const REPLY_TIMEOUT_MS = 2000;
const cipher = localSecretCipher(randomBytes(32).toString('base64'));
const OLD_SECRET = 'whsec_old-secret-old-secret-old-secret-old-secret';
const NEW_SECRET = 'whsec_new-secret-new-secret-new-secret-new-secret';

// ---- the receiver: a real HTTP server on 127.0.0.1 whose answer each test chooses ----

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Reply = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let receiverUrl: string;
let received: Received[];
let reply: Reply;
const answer =
  (status: number, headers: Record<string, string> = {}): Reply =>
  (_request, response) =>
    response.writeHead(status, headers).end();

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      reply(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// ---- the store: the endpoint item and attempt log in memory (tests/support/in-memory-delivery-store.ts) ----

let store: InMemoryDeliveryStore;
const webhook = () => storedEndpoint(store);
const sqs = mockClient(SQSClient);
let notifyOwner: ReturnType<typeof vi.fn<NotifyOwner>>;

const owner = anAccount({ email: 'owner@example.com', name: 'Owner' });

/** `secret: null` is an endpoint created before signing existed. */
async function storedWebhook(
  overrides: Record<string, unknown> = {},
  secret: string | null = OLD_SECRET,
): Promise<Record<string, unknown>> {
  return aStoredWebhook({
    url: receiverUrl,
    ...(secret !== null && { encrypted_secret: await cipher.encrypt(secret, 'wh-1') }),
    ...overrides,
  });
}

const deliveryDeps = (config: Partial<Config> = {}) =>
  depsAround(
    { store, cipher, notifyOwner, post: postToReceivers({ allowLoopbackWebhooks: true, ...config }, REPLY_TIMEOUT_MS) },
    config,
  );
const deliver = (jobs: DeliveryJob[], config?: Partial<Config>) => deliverBatch(() => deliveryDeps(config), jobs);
const queuedRetries = () => queuedJobs(sqs);

beforeEach(async () => {
  received = [];
  reply = answer(200);
  store = inMemoryDeliveryStore(() => NOW);
  store.put(await storedWebhook());
  // The owner's account, read when an endpoint is disabled.
  mockDynamoWithAccounts([{ apiKey: 'unused', account: owner }]);
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'retry-1' });
  notifyOwner = vi.fn<NotifyOwner>().mockResolvedValue(undefined);
});

describe('delivering a webhook', () => {
  it('POSTs the resource with _metadata, signed with the current secret, and logs the attempt', async () => {
    expect(await deliver([job()])).toEqual({ batchItemFailures: [] });

    const [request] = received;
    expect(
      verifySignature({
        header: request!.headers['x-webhook-signature'] as string,
        rawBody: request!.body,
        secret: OLD_SECRET,
        nowSeconds: NOW_SECONDS,
      }),
    ).toEqual({
      ok: true,
      timestamp: NOW_SECONDS,
    });
    expect(JSON.parse(request!.body)).toEqual({
      ...storedEvent.resource,
      _metadata: { event_type: 'vote.created', timestamp: '2026-11-22T09:59:58.000Z', country_code: 'GB' },
    });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'PetAPI-Webhooks/1.0',
      'x-webhook-id': 'evt_1',
      'x-webhook-event': 'vote.created',
    });
    expect(store.attempts).toEqual([
      expect.objectContaining({
        id: 'att-1',
        event_id: 'evt_1',
        attempt: 1,
        status_code: 200,
        error: null,
        succeeded: true,
        attempted_at: NOW.toISOString(),
      }),
    ]);
    expect(store.attempts[0]!.expiresAt).toBe(NOW_SECONDS + 30 * 24 * 60 * 60);
    expect(queuedRetries()).toEqual([]);
  });

  it('sends no signature header to an endpoint without a secret', async () => {
    store.put(await storedWebhook({}, null));

    await deliver([job()]);

    expect(received).toHaveLength(1);
    expect(received[0]!.headers).not.toHaveProperty('x-webhook-signature');
  });

  it("ends a failure streak on success and frees the streak's attempt slots", async () => {
    webhook()!.consecutive_failures = 4;
    webhook()!.attempt_slots = 4;

    await deliver([job()]);

    expect(webhook()!.consecutive_failures).toBe(0);
    expect(webhook()!.attempt_slots).toBe(0);
  });

  it('signs the next attempt with a secret rotated after the previous one', async () => {
    reply = answer(500);
    await deliver([job()]);
    webhook()!.encrypted_secret = await cipher.encrypt(NEW_SECRET, 'wh-1');
    reply = answer(200);

    await deliver([queuedRetries()[0]!.job]);

    const header = received[1]!.headers['x-webhook-signature'] as string;
    expect(
      verifySignature({ header, rawBody: received[1]!.body, secret: NEW_SECRET, nowSeconds: NOW_SECONDS }).ok,
    ).toBe(true);
    expect(
      verifySignature({ header, rawBody: received[1]!.body, secret: OLD_SECRET, nowSeconds: NOW_SECONDS }),
    ).toEqual({ ok: false, reason: 'signature_mismatch' });
  });
});

describe('failed attempts', () => {
  it('counts no reply within the time limit as a failure and retries after 1 s', async () => {
    reply = () => {}; // never answers

    await deliver([job(1)]);

    expect(store.attempts[0]).toMatchObject({
      status_code: null,
      error: `no reply within ${REPLY_TIMEOUT_MS} ms`,
      succeeded: false,
    });
    expect(queuedRetries()).toEqual([{ job: job(2), delaySeconds: 1 }]);
  });

  it('does not follow a redirect and counts it as a failure', async () => {
    reply = (request, response) =>
      request.url === '/hook' ? answer(302, { location: '/moved' })(request, response) : answer(200)(request, response);

    await deliver([job(1)]);

    expect(received.map((r) => r.path)).toEqual(['/hook']);
    expect(store.attempts[0]).toMatchObject({ status_code: 302, error: 'redirect not followed', succeeded: false });
    expect(webhook()!.consecutive_failures).toBe(1);
  });

  it('retries after 2 s when the second attempt fails', async () => {
    reply = answer(503);

    await deliver([job(2)]);

    expect(queuedRetries()).toEqual([{ job: job(3), delaySeconds: 2 }]);
  });

  it('stops after the third failed attempt', async () => {
    reply = answer(500);

    expect(await deliver([job(3)])).toEqual({ batchItemFailures: [] });

    expect(store.attempts).toHaveLength(1);
    expect(queuedRetries()).toEqual([]);
  });

  it('refuses a loopback receiver when deployed, checking the URL again before the attempt', async () => {
    await deliver([job(1)], { allowLoopbackWebhooks: false });

    expect(received).toEqual([]);
    expect(store.attempts[0]).toMatchObject({
      status_code: null,
      error: 'url refused: unsupported_scheme',
      succeeded: false,
    });
  });

  it('hands the job back to SQS when the retry cannot be queued', async () => {
    reply = answer(500);
    sqs.on(SendMessageCommand).rejects(new Error('SQS unavailable'));

    expect(await deliver([job(1)])).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
  });

  it('queues the next attempt of an event whose strings hold any character, the strings intact', async () => {
    reply = answer(500);
    queueRefusingWhatQueuesRefuse(sqs);
    const subIds = Object.values(CHARACTER_CLASSES);
    const jobs = subIds.map((sub_id, n) => {
      const { event } = job(1, `evt_${n}`);
      return { ...job(1), event: { ...event, resource: { ...event.resource, sub_id } } };
    });

    expect(await deliver(jobs)).toEqual({ batchItemFailures: [] });

    const retried = queuedRetries().map((retry) => retry.job);
    expect(retried.map((j) => j.event.resource.sub_id).sort()).toEqual([...subIds].sort());
    expect(retried.map((j) => j.attempt)).toEqual(subIds.map(() => 2));
  });

  it('sends a job whose next attempt SQS refuses for good to the dead-letter queue at once, with the reason', async () => {
    reply = answer(500);
    sqs
      .on(SendMessageCommand, { QueueUrl: DELIVERIES_QUEUE })
      .rejects(new InvalidMessageContents({ message: 'Invalid characters found.', $metadata: {} }));
    sqs.on(SendMessageCommand, { QueueUrl: DELIVERIES_DLQ }).resolves({ MessageId: 'dead-1' });

    expect(await deliver([job(1)])).toEqual({ batchItemFailures: [] });

    const [letter] = sqs
      .commandCalls(SendMessageCommand)
      .map((c) => c.args[0].input)
      .filter((input) => input.QueueUrl === DELIVERIES_DLQ);
    expect(JSON.parse(letter!.MessageBody!)).toEqual(job(1));
    expect(letter!.MessageAttributes).toMatchObject({
      consumer: { StringValue: 'webhooks.deliver' },
      refused_code: { StringValue: 'InvalidMessageContents' },
    });
  });
});

describe('disabling after ten failures in a row', () => {
  it('disables the endpoint at the tenth failure, mails the owner and retries no more', async () => {
    webhook()!.consecutive_failures = 9;
    reply = answer(500);

    await deliver([job(1)]);

    expect(webhook()).toMatchObject({
      status: 'disabled',
      disabled_at: NOW.toISOString(),
      disabled_reason: '10 delivery attempts failed in a row (last: HTTP 500)',
    });
    expect(notifyOwner).toHaveBeenCalledExactlyOnceWith(
      { name: 'Owner', email: 'owner@example.com' },
      expect.objectContaining({ id: 'wh-1', url: receiverUrl }),
      '10 delivery attempts failed in a row (last: HTTP 500)',
    );
    expect(queuedRetries()).toEqual([]);
  });

  it('disables once and mails once when two workers cross the threshold together', async () => {
    webhook()!.consecutive_failures = 9;
    // Each worker waits after counting its failure until both have: both then see the threshold crossed.
    let arrived = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    store.afterCounting = async () => {
      if (++arrived >= 2) release();
      await released;
    };
    reply = answer(500);

    const [first, second] = await Promise.all([deliver([job(1)]), deliver([job(2)])]);

    const disables = store.writes.filter((write) => write === 'disable');
    expect(disables).toHaveLength(2); // both tried; the condition let only one through
    expect(webhook()).toMatchObject({ status: 'disabled', consecutive_failures: 11 });
    expect(notifyOwner).toHaveBeenCalledTimes(1);
    expect([first, second]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(queuedRetries()).toEqual([]);
  });

  it('sends nothing more to a disabled endpoint', async () => {
    webhook()!.status = 'disabled';

    await deliver([job(2)]);

    expect(received).toEqual([]);
    expect(store.attempts).toEqual([]);
  });

  it('keeps the disable when the mail cannot be sent', async () => {
    webhook()!.consecutive_failures = 9;
    notifyOwner.mockRejectedValue(new Error('SES throttled'));
    reply = answer(500);

    expect(await deliver([job(1)])).toEqual({ batchItemFailures: [] });
    expect(webhook()!.status).toBe('disabled');
  });
});

describe('jobs that cannot be delivered', () => {
  it('skips a deleted endpoint', async () => {
    store.remove('acc-user', 'wh-1');
    await deliver([job()]);

    expect(received).toEqual([]);
    expect(store.attempts).toEqual([]);
  });

  it('drops a malformed job as a permanent failure instead of retrying it, and delivers the rest', async () => {
    const handler = createDeliveryHandler(() => deliveryDeps());

    expect(await handler(sqsEvent('{"event_id": "evt_1"}', JSON.stringify(job())))).toEqual({
      batchItemFailures: [],
    });
    expect(received).toHaveLength(1);
  });
});
