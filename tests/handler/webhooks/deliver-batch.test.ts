import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PostAttempt, SLOT_POLL_MS } from '../../../shared/domain/webhooks/deliver.ts';
import type { DeliveryJob } from '../../../shared/domain/webhooks/delivery-queue.ts';
import { type FakeOwnerMailer, fakeOwnerMailer } from '../../../shared/adapters/owner-mail/fake.ts';
import type { SecretCipher } from '../../../shared/ports/secret-cipher.ts';
import { WEBHOOK_ID_HEADER } from '../../../shared/webhooks/receiver.ts';
import { judgeReply } from '../../../shared/webhooks/transport.ts';
import {
  deliverBatch,
  deliveryDeps,
  deliveryJobs as jobs,
  queuedJobs,
  storedEndpoint,
} from '../../support/deliveries.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { anAccount, mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { type InMemoryDeliveryStore, inMemoryDeliveryStore } from '../../support/in-memory-delivery-store.ts';

// How the jobs of one consumer batch share an endpoint's slots and writes. The receiver answers in-process and the
// clock is fake, so "replies within a poll" and "a reply slower than the others" mean exactly that on any machine.

/** A request as the receiver saw it: its event and when it arrived (ms of the fake clock since the batch started). */
interface Received {
  eventId: string;
  at: number;
}

let store: InMemoryDeliveryStore;
const webhook = () => storedEndpoint(store)!;
const sqs = mockClient(SQSClient);
let mailer: FakeOwnerMailer;
let received: Received[];
let started: number;
/** The receiver's answer to one event's request: its status, once the promise resolves. */
let reply: (eventId: string) => Promise<number>;

/** Answers `status` after `ms` of the fake clock. */
const answerAfter = (ms: number, status: number) =>
  new Promise<number>((resolve) => setTimeout(() => resolve(status), ms));
/** A receiver that answers within a poll. */
const quickly = (status: number) => answerAfter(SLOT_POLL_MS / 4, status);

const post: PostAttempt = async (_url, request) => {
  const eventId = request.headers[WEBHOOK_ID_HEADER]!;
  received.push({ eventId, at: Date.now() - started });
  const status = await reply(eventId);
  return { ...judgeReply(status), statusCode: status, durationMs: 1, response: null };
};
const plainText: SecretCipher = { encrypt: async (secret) => secret, decrypt: async (ciphertext) => ciphertext };

/** Moves the fake clock on until `work` has ended. */
async function untilDone<T>(work: Promise<T>): Promise<T> {
  let ended = false;
  void work.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended) {
    // Requests grouped within a turn go out before the clock moves on to the next timer.
    await new Promise((resolve) => setImmediate(resolve));
    if (!ended) await vi.advanceTimersToNextTimerAsync();
  }
  return work;
}

/** One invocation of the deliverer with `batch`: what it answers SQS. */
const invoke = (batch: DeliveryJob[]) =>
  deliverBatch(() => deliveryDeps({ store, cipher: plainText, notifyOwner: mailer.notify, post }), batch);
const deliver = (batch: DeliveryJob[]) => untilDone(invoke(batch));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  started = Date.now();
  received = [];
  reply = (_eventId) => quickly(200);
  store = inMemoryDeliveryStore(() => new Date());
  store.put(aStoredWebhook({ url: 'https://hooks.example.com/wh-1', encrypted_secret: 'whsec_test' }));
  mockDynamoWithAccounts([{ apiKey: 'unused', account: anAccount({ email: 'owner@example.com' }) }]);
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'queued-1' });
  mailer = fakeOwnerMailer();
});

afterEach(() => {
  vi.useRealTimers();
});

const eventIds = (batch: DeliveryJob[]) => batch.map((j) => j.event.id).sort();

describe('a batch of jobs to one endpoint', () => {
  it('takes slots for half the jobs; a receiver slower than a poll gets the other half on slots of their own, in parallel', async () => {
    // No reply until all six requests have arrived: only slots of their own can carry the second half.
    const held: (() => void)[] = [];
    reply = () =>
      new Promise((resolve) => {
        held.push(() => resolve(200));
        if (held.length === 6) for (const answer of held) answer();
      });

    expect(await deliver(jobs(6))).toEqual({ batchItemFailures: [] });

    // Three at once; after one poll the other three take slots for half of them, and the last its own after another.
    expect(received.map((r) => r.at)).toEqual([0, 0, 0, SLOT_POLL_MS, SLOT_POLL_MS, 2 * SLOT_POLL_MS]);
    // All six settle in one write and log in one.
    expect(store.writes).toEqual(['reserveSlots', 'reserveSlots', 'reserveSlots', 'settleSlots', 'recordAttempts']);
    expect(store.attempts.map((a) => a.event_id).sort()).toEqual(eventIds(jobs(6)));
    expect(webhook()).toMatchObject({ attempt_slots: 0, consecutive_failures: 0 });
  });

  it('hands the slot of a success to the next job of the batch instead of giving it back and taking it again', async () => {
    const slotsTaken: unknown[] = [];
    reply = () => {
      slotsTaken.push(webhook().attempt_slots);
      return quickly(200);
    };

    expect(await deliver(jobs(6))).toEqual({ batchItemFailures: [] });

    // Three slots carried six attempts: no write gave a slot back or took one again in between.
    expect(slotsTaken).toEqual([3, 3, 3, 3, 3, 3]);
    expect(store.writes).toEqual(['reserveSlots', 'settleSlots', 'recordAttempts']);
    // The second half went as soon as the first half answered, not after a poll.
    expect(received.map((r) => r.at)).toEqual([0, 0, 0, 5, 5, 5]);
    expect(store.attempts.map((a) => a.event_id).sort()).toEqual(eventIds(jobs(6)));
    expect(webhook()).toMatchObject({ attempt_slots: 0, consecutive_failures: 0 });
  });

  it('hands a success that passed its slot on back to SQS with its batch when their log cannot be written', async () => {
    store.recordAttempts = async () => {
      throw new Error('DynamoDB is unavailable');
    };

    const result = await deliver(jobs(4));

    expect(received).toHaveLength(4);
    // Two slots carried four attempts; the two that passed theirs on are not done until the log of all four is.
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['msg-1', 'msg-2', 'msg-3', 'msg-4']);
  });

  it('never hands on the slot of a failure: it stays with the failure streak until a success ends it', async () => {
    reply = (eventId) => quickly(['evt_1', 'evt_2'].includes(eventId) ? 500 : 200);
    let afterFailures: unknown;
    const settle = store.settleSlots.bind(store);
    store.settleSlots = async (...args) => {
      const outcome = await settle(...args);
      afterFailures ??= { ...webhook() };
      return outcome;
    };

    await deliver(jobs(4));

    // The two failures kept their slots as the streak; the other two jobs took a slot of their own, woken by the
    // failures' settlement rather than their poll, and the first success handed it on to the second.
    expect(afterFailures).toMatchObject({ attempt_slots: 2, consecutive_failures: 2 });
    expect(received).toEqual([
      { eventId: 'evt_1', at: 0 },
      { eventId: 'evt_2', at: 0 },
      { eventId: 'evt_3', at: 5 },
      { eventId: 'evt_4', at: 10 },
    ]);
    expect(store.writes).toEqual([
      'reserveSlots',
      'settleSlots',
      'recordAttempts',
      'reserveSlots',
      'settleSlots',
      'recordAttempts',
    ]);
    expect(webhook()).toMatchObject({ attempt_slots: 0, consecutive_failures: 0 });
    expect(queuedJobs(sqs).map((r) => r.job.event.id)).toEqual(['evt_1', 'evt_2']);
  });

  it('keeps the failures that came after the last success as the new streak, holding their slots', async () => {
    webhook().consecutive_failures = 3;
    webhook().attempt_slots = 3;
    reply = (eventId) => (eventId === 'evt_1' ? quickly(200) : answerAfter(400, 500));

    await deliver(jobs(3));

    expect(webhook()).toMatchObject({ consecutive_failures: 2, attempt_slots: 2 });
    expect(store.writes.filter((write) => write === 'settleSlots')).toHaveLength(1);
  });

  it('settles a slow reply on its own, so it holds back only its own slot', async () => {
    let slotsWhileSlow: unknown;
    reply = (eventId) => {
      if (eventId !== 'evt_3') return quickly(200);
      return answerAfter(800, 200).then((status) => {
        slotsWhileSlow = webhook().attempt_slots;
        return status;
      });
    };

    await deliver(jobs(3));

    expect(slotsWhileSlow).toBe(1);
    expect(store.writes.filter((write) => write === 'settleSlots')).toHaveLength(2);
    expect(webhook().attempt_slots).toBe(0);
  });

  it('holds a job back, keeping its attempt number, when no slot came free within its polls', async () => {
    webhook().attempt_slots = 10;
    webhook().slots_taken_at = Date.now();

    await deliver([{ ...jobs(1)[0]!, attempt: 2 }]);

    expect(received).toEqual([]);
    expect(queuedJobs(sqs)).toEqual([{ job: { ...jobs(1)[0]!, attempt: 2 }, delaySeconds: 1 }]);
  });

  it('sends exactly ten attempts to a failing endpoint from two parallel batches of twelve and eight, then disables it and mails once', async () => {
    reply = () => quickly(500);

    const results = await untilDone(Promise.all([invoke(jobs(12, 'evt_a')), invoke(jobs(8, 'evt_b'))]));

    expect(received).toHaveLength(10);
    expect(store.attempts).toHaveLength(10);
    expect(webhook()).toMatchObject({ status: 'disabled', consecutive_failures: 10, attempt_slots: 10 });
    expect(mailer.sent).toHaveLength(1);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    // Failures settled before the disable queued their retries; each finds the endpoint disabled and sends nothing.
    for (const retry of queuedJobs(sqs)) await deliver([retry.job]);
    expect(received).toHaveLength(10);
    expect(mailer.sent).toHaveLength(1);
  });
});
