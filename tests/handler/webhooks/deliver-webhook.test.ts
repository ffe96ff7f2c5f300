import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryHandler } from '../../../events/webhooks/deliver-webhook.ts';
import { loadConfig, type Config } from '../../../shared/config.ts';
import { getDeps } from '../../../shared/deps.ts';
import { callbackLogger } from '../../../shared/log.ts';
import type { DeliveryDeps } from '../../../shared/domain/webhooks/deliver.ts';
import type { DeliveryJob } from '../../../shared/domain/webhooks/delivery-queue.ts';
import type { StoredEvent } from '../../../shared/domain/webhooks/stored-events.ts';
import type { NotifyOwner } from '../../../shared/webhooks/owner-mail.ts';
import { localSecretCipher } from '../../../shared/webhooks/secret-cipher.ts';
import { verifySignature } from '../../../shared/webhooks/signature.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { anAccount, mockDynamoWithAccounts } from '../../support/fixtures.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const NOW_SECONDS = NOW.getTime() / 1000;
const DELIVERIES_QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries';
// Long enough for a loaded machine running with coverage; only the no-reply test waits for it.
const REPLY_TIMEOUT_MS = 2000;
// Replies a test releases together settle together even when a loaded machine spreads their arrival.
const SETTLE_LINGER_MS = 150;
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

// ---- the table: a small stateful stand-in for the endpoint item and the attempt log ----

type Item = Record<string, unknown>;
interface TableState {
  webhook: Item | undefined;
  attempts: Item[];
  /** Resolves once this many failures are counted, holding each counting call until then (to line up racing workers). */
  countingBarrier?: { waitFor: number; arrived: number; release: () => void; released: Promise<void> };
}

/** As DynamoDB answers a failed condition with ReturnValuesOnConditionCheckFailure: ALL_OLD. */
const conditionFailed = (item?: Item) =>
  Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), {
    ...(item && { Item: marshall(item, { removeUndefinedValues: true }) }),
  });

const slotsOf = (webhook: Item) => Number(webhook.attempt_slots ?? 0);

async function applyUpdate(state: TableState, input: UpdateCommandInput) {
  const webhook = state.webhook;
  const values = input.ExpressionAttributeValues ?? {};
  if (input.UpdateExpression === 'ADD attempt_slots :slots') {
    if (webhook?.status !== 'enabled' || slotsOf(webhook) > Number(values[':most']))
      throw conditionFailed(webhook && { ...webhook });
    webhook.attempt_slots = slotsOf(webhook) + Number(values[':slots']);
    return { Attributes: { ...webhook } };
  }
  if (input.UpdateExpression === 'SET consecutive_failures = :streak ADD attempt_slots :change') {
    if (!webhook || webhook.consecutive_failures !== values[':seen']) throw conditionFailed(webhook && { ...webhook });
    webhook.consecutive_failures = values[':streak'];
    webhook.attempt_slots = slotsOf(webhook) + Number(values[':change']);
    return { Attributes: { ...webhook } };
  }
  if (input.UpdateExpression === 'ADD consecutive_failures :failures, attempt_slots :unused') {
    if (!webhook) throw conditionFailed();
    webhook.consecutive_failures = Number(webhook.consecutive_failures) + Number(values[':failures']);
    webhook.attempt_slots = slotsOf(webhook) + Number(values[':unused']);
    const snapshot = { ...webhook };
    const barrier = state.countingBarrier;
    if (barrier) {
      if (++barrier.arrived >= barrier.waitFor) barrier.release();
      await barrier.released;
    }
    return { Attributes: snapshot };
  }
  if (input.UpdateExpression?.startsWith('SET #status = :disabled')) {
    if (webhook?.status !== 'enabled') throw conditionFailed(webhook && { ...webhook });
    Object.assign(webhook, {
      status: 'disabled',
      disabled_at: values[':now'],
      disabled_reason: values[':reason'],
      updated_at: values[':now'],
    });
    return { Attributes: { ...webhook } };
  }
  throw new Error(`unexpected update ${input.UpdateExpression}`);
}

let state: TableState;
let ddb: ReturnType<typeof mockDynamoWithAccounts>;
const sqs = mockClient(SQSClient);
let notifyOwner: ReturnType<typeof vi.fn<NotifyOwner>>;

const owner = anAccount({ email: 'owner@example.com', name: 'Owner' });
const storedEvent: StoredEvent = {
  id: 'evt_1',
  event_type: 'vote.created',
  account_id: 'acc-user',
  occurred_at: '2026-11-22T09:59:58.000Z',
  country_code: 'GB',
  resource: {
    id: 42,
    image_id: 'img-1',
    sub_id: null,
    value: 1,
    country_code: 'GB',
    created_at: '2026-11-22T09:59:58.000Z',
  },
};

/** `secret: null` is an endpoint created before signing existed. */
async function storedWebhook(overrides: Item = {}, secret: string | null = OLD_SECRET): Promise<Item> {
  return aStoredWebhook({
    url: receiverUrl,
    ...(secret !== null && { encrypted_secret: await cipher.encrypt(secret, 'wh-1') }),
    ...overrides,
  });
}

function deliveryDeps(config: Partial<Config> = {}): DeliveryDeps {
  let ids = 0;
  return {
    ...getDeps(),
    config: { ...loadConfig(), allowLoopbackWebhooks: true, webhookDeliveriesQueueUrl: DELIVERIES_QUEUE, ...config },
    log: callbackLogger(() => {}),
    now: () => NOW,
    newId: () => `att-${++ids}`,
    random: () => 0,
    cipher,
    notifyOwner,
    replyTimeoutMs: REPLY_TIMEOUT_MS,
    settleLingerMs: SETTLE_LINGER_MS,
  };
}

const job = (attempt = 1, eventId = 'evt_1'): DeliveryJob => ({
  webhook_id: 'wh-1',
  attempt,
  event: { ...storedEvent, id: eventId },
});
const sqsEvent = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, n) => ({ messageId: `msg-${n + 1}`, body })) }) as unknown as SQSEvent;
const deliver = (jobs: DeliveryJob[], config?: Partial<Config>) =>
  createDeliveryHandler(() => deliveryDeps(config))(sqsEvent(...jobs.map((j) => JSON.stringify(j))));

const queuedRetries = () =>
  sqs.commandCalls(SendMessageCommand).map((c) => ({
    job: JSON.parse(c.args[0].input.MessageBody!) as DeliveryJob,
    delaySeconds: c.args[0].input.DelaySeconds,
  }));

beforeEach(async () => {
  received = [];
  reply = answer(200);
  state = { webhook: await storedWebhook(), attempts: [] };
  ddb = mockDynamoWithAccounts([{ apiKey: 'unused', account: owner }]);
  ddb.on(BatchWriteCommand).callsFake((input: BatchWriteCommandInput) => {
    for (const request of Object.values(input.RequestItems!).flat()) state.attempts.push(request.PutRequest!.Item!);
    return {};
  });
  ddb.on(UpdateCommand).callsFake((input: UpdateCommandInput) => applyUpdate(state, input));
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
    expect(state.attempts).toEqual([
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
    expect(state.attempts[0]!.expiresAt).toBe(NOW_SECONDS + 30 * 24 * 60 * 60);
    expect(queuedRetries()).toEqual([]);
  });

  it('sends no signature header to an endpoint without a secret', async () => {
    state.webhook = await storedWebhook({}, null);

    await deliver([job()]);

    expect(received).toHaveLength(1);
    expect(received[0]!.headers).not.toHaveProperty('x-webhook-signature');
  });

  it("ends a failure streak on success and frees the streak's attempt slots", async () => {
    state.webhook!.consecutive_failures = 4;
    state.webhook!.attempt_slots = 4;

    await deliver([job()]);

    expect(state.webhook!.consecutive_failures).toBe(0);
    expect(state.webhook!.attempt_slots).toBe(0);
  });

  it('holds a job back, keeping its attempt number, while ten attempts are failing or in flight', async () => {
    state.webhook!.attempt_slots = 10;

    await deliver([job(2)]);

    expect(received).toHaveLength(0);
    const [requeued] = sqs.commandCalls(SendMessageCommand);
    expect(requeued!.args[0].input.DelaySeconds).toBe(1);
    expect(JSON.parse(requeued!.args[0].input.MessageBody!)).toMatchObject({ attempt: 2 });
  });

  it('signs the next attempt with a secret rotated after the previous one', async () => {
    reply = answer(500);
    await deliver([job()]);
    state.webhook!.encrypted_secret = await cipher.encrypt(NEW_SECRET, 'wh-1');
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

    expect(state.attempts[0]).toMatchObject({
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
    expect(state.attempts[0]).toMatchObject({ status_code: 302, error: 'redirect not followed', succeeded: false });
    expect(state.webhook!.consecutive_failures).toBe(1);
  });

  it('retries after 2 s when the second attempt fails', async () => {
    reply = answer(503);

    await deliver([job(2)]);

    expect(queuedRetries()).toEqual([{ job: job(3), delaySeconds: 2 }]);
  });

  it('stops after the third failed attempt', async () => {
    reply = answer(500);

    expect(await deliver([job(3)])).toEqual({ batchItemFailures: [] });

    expect(state.attempts).toHaveLength(1);
    expect(queuedRetries()).toEqual([]);
  });

  it('refuses a loopback receiver when deployed, checking the URL again before the attempt', async () => {
    await deliver([job(1)], { allowLoopbackWebhooks: false });

    expect(received).toEqual([]);
    expect(state.attempts[0]).toMatchObject({
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
});

describe('disabling after ten failures in a row', () => {
  it('disables the endpoint at the tenth failure, mails the owner and retries no more', async () => {
    state.webhook!.consecutive_failures = 9;
    reply = answer(500);

    await deliver([job(1)]);

    expect(state.webhook).toMatchObject({
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
    state.webhook!.consecutive_failures = 9;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    state.countingBarrier = { waitFor: 2, arrived: 0, release, released };
    reply = answer(500);

    const [first, second] = await Promise.all([deliver([job(1)]), deliver([job(2)])]);

    const disableCalls = ddb
      .commandCalls(UpdateCommand)
      .filter((c) => c.args[0].input.UpdateExpression?.startsWith('SET #status'));
    expect(disableCalls).toHaveLength(2); // both tried; the condition let only one through
    expect(state.webhook).toMatchObject({ status: 'disabled', consecutive_failures: 11 });
    expect(notifyOwner).toHaveBeenCalledTimes(1);
    expect([first, second]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(queuedRetries()).toEqual([]);
  });

  it('sends nothing more to a disabled endpoint', async () => {
    state.webhook!.status = 'disabled';

    await deliver([job(2)]);

    expect(received).toEqual([]);
    expect(state.attempts).toEqual([]);
  });

  it('keeps the disable when the mail cannot be sent', async () => {
    state.webhook!.consecutive_failures = 9;
    notifyOwner.mockRejectedValue(new Error('SES throttled'));
    reply = answer(500);

    expect(await deliver([job(1)])).toEqual({ batchItemFailures: [] });
    expect(state.webhook!.status).toBe('disabled');
  });
});

describe('a batch of jobs to one endpoint', () => {
  const jobs = (count: number, prefix = 'evt') => Array.from({ length: count }, (_, n) => job(1, `${prefix}_${n + 1}`));
  const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.UpdateExpression);

  /** Holds every reply until `count` requests have arrived, then answers them all at once. */
  const answerTogether = (count: number, status: number): Reply => {
    const waiting: ServerResponse[] = [];
    return (_request, response) => {
      waiting.push(response);
      if (waiting.length === count) for (const r of waiting) r.writeHead(status).end();
    };
  };

  it('takes their slots in one write and settles and logs them in one write each', async () => {
    reply = answerTogether(5, 200);

    expect(await deliver(jobs(5))).toEqual({ batchItemFailures: [] });

    expect(received).toHaveLength(5);
    expect(updates()).toEqual([
      'ADD attempt_slots :slots',
      'SET consecutive_failures = :streak ADD attempt_slots :change',
    ]);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(1);
    expect(state.attempts).toHaveLength(5);
    expect(state.webhook).toMatchObject({ attempt_slots: 0, consecutive_failures: 0 });
  });

  it('keeps the failures that came after the last success as the new streak, holding their slots', async () => {
    state.webhook!.consecutive_failures = 3;
    state.webhook!.attempt_slots = 3;
    reply = (request, response) =>
      request.headers['x-webhook-id'] === 'evt_1'
        ? answer(200)(request, response)
        : setTimeout(() => answer(500)(request, response), 400);

    await deliver(jobs(3));

    expect(state.webhook).toMatchObject({ consecutive_failures: 2, attempt_slots: 2 });
  });

  it('sends exactly ten attempts to a failing endpoint from two parallel batches of twelve and eight, then disables it and mails once', async () => {
    reply = answer(500);

    const results = await Promise.all([deliver(jobs(12, 'evt_a')), deliver(jobs(8, 'evt_b'))]);

    expect(received).toHaveLength(10);
    expect(state.attempts).toHaveLength(10);
    expect(state.webhook).toMatchObject({ status: 'disabled', consecutive_failures: 10, attempt_slots: 10 });
    expect(notifyOwner).toHaveBeenCalledTimes(1);
    expect(queuedRetries()).toEqual([]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
  });

  it('settles a slow reply on its own, so it holds back only its own slot', async () => {
    let slotsWhileSlow: unknown;
    reply = (request, response) =>
      request.headers['x-webhook-id'] === 'evt_3'
        ? setTimeout(() => {
            slotsWhileSlow = state.webhook!.attempt_slots;
            answer(200)(request, response);
          }, 800)
        : answer(200)(request, response);

    await deliver(jobs(3));

    expect(slotsWhileSlow).toBe(1);
    expect(state.webhook!.attempt_slots).toBe(0);
  });
});

describe('jobs that cannot be delivered', () => {
  it('skips a deleted endpoint', async () => {
    state.webhook = undefined;
    await deliver([job()]);

    expect(received).toEqual([]);
    expect(state.attempts).toEqual([]);
  });

  it('drops a malformed job as a permanent failure instead of retrying it, and delivers the rest', async () => {
    const handler = createDeliveryHandler(() => deliveryDeps());

    expect(await handler(sqsEvent('{"event_id": "evt_1"}', JSON.stringify(job())))).toEqual({
      batchItemFailures: [],
    });
    expect(received).toHaveLength(1);
  });
});
