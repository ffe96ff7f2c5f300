import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { api, createAccount, subscribe } from '../support/api-client.ts';
import { type Received, type Receiver, receiversClosedAfterEach } from '../support/receiver.ts';

const receiver = receiversClosedAfterEach();

const failing = () => receiver(() => ({ status: 503, body: 'down for maintenance' }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OPERATIONAL = ['webhook.endpoint.disabled', 'webhook.attempts.exhausted'];
const typeOf = (d: Received) => String(d.headers['x-webhook-event']);
const ofType = (r: Receiver, type: string) => r.received.filter((d) => typeOf(d) === type);

/** Both verifiers accept the delivery with the receiving endpoint's secret; returns the parsed body. */
function verified(delivery: Received, secret: string) {
  const { body, headers } = delivery;
  Stripe.webhooks.constructEvent(body, String(headers['x-webhook-signature']), secret);
  return new Webhook(secret).verify(body, headers as Record<string, string>) as Record<string, unknown>;
}

async function vote(key: string) {
  const image = (await api('GET', '/images/search?order=ASC&limit=1', { key })).body[0].id;
  const res = await api('POST', '/votes', { key, body: { image_id: image, value: 1 } });
  expect(res.status).toBe(200);
}

describe('operational events (webhook.endpoint.disabled, webhook.attempts.exhausted)', () => {
  it('tells another endpoint, signed, that an event’s three attempts failed, and never the endpoint concerned', async () => {
    const account = await createAccount();
    const down = await failing();
    const watcher = await receiver();
    const downHook = await subscribe(account.api_key, down.url, ['vote.created', ...OPERATIONAL]);
    const watcherHook = await subscribe(account.api_key, watcher.url, OPERATIONAL);

    await vote(account.api_key);
    const [notice] = await watcher.waitFor(1, 20_000);
    await sleep(2000);

    expect(down.received.map(typeOf)).toEqual(['vote.created', 'vote.created', 'vote.created']);
    expect(watcher.received).toHaveLength(1);
    expect(typeOf(notice!)).toBe('webhook.attempts.exhausted');
    expect(verified(notice!, watcherHook.signing_secret)).toMatchObject({
      webhook_id: downHook.id,
      event_id: down.received[0]!.headers['x-webhook-id'],
      event_type: 'vote.created',
      attempts: 3,
      last_status_code: 503,
      last_error: 'HTTP 503',
      _metadata: { event_type: 'webhook.attempts.exhausted' },
    });
    // Delivered like any event: in the watcher's log, and redeliverable from it.
    const eventId = String(notice!.headers['x-webhook-id']);
    const log = await api('GET', `/webhooks/${watcherHook.id}/deliveries/${eventId}`, { key: account.api_key });
    expect(log.body).toMatchObject({ delivered: true });
    const again = await api('POST', `/webhooks/${watcherHook.id}/deliveries/${eventId}/redeliver`, {
      key: account.api_key,
    });
    expect(again.body).toMatchObject({ message: 'QUEUED', event_type: 'webhook.attempts.exhausted' });
    await watcher.waitFor(2);
    expect(watcher.received[1]!.headers['x-webhook-id']).toBe(eventId);
    expect(JSON.parse(watcher.received[1]!.body)).toEqual(JSON.parse(notice!.body));
  }, 40_000);

  it('tells another endpoint, signed, that an endpoint was disabled, once, and never the disabled endpoint', async () => {
    const account = await createAccount({ email: 'owner@example.test' });
    const down = await failing();
    const watcher = await receiver();
    const downHook = await subscribe(account.api_key, down.url, ['vote.created', ...OPERATIONAL]);
    const watcherHook = await subscribe(account.api_key, watcher.url, ['webhook.endpoint.disabled']);

    // Four events: twelve attempts if nothing stopped them; the tenth failure disables the endpoint.
    for (let n = 0; n < 4; n++) await vote(account.api_key);
    const [notice] = await watcher.waitFor(1, 30_000);
    await sleep(3000);

    expect(down.received).toHaveLength(10);
    expect(down.received.map(typeOf).every((type) => type === 'vote.created')).toBe(true);
    expect(watcher.received).toHaveLength(1);
    expect(typeOf(notice!)).toBe('webhook.endpoint.disabled');
    const body = verified(notice!, watcherHook.signing_secret);
    const endpoint = (await api('GET', `/webhooks/${downHook.id}`, { key: account.api_key })).body;
    expect(body).toMatchObject({
      webhook_id: downHook.id,
      url: down.url,
      last_error: expect.stringContaining('503'),
      consecutive_failures: 10,
      disabled_at: endpoint.disabled_at,
      reason: endpoint.disabled_reason,
    });
  }, 60_000);

  it('makes no notice of a notice whose three attempts failed too, so a failing receiver of notices cannot loop', async () => {
    const account = await createAccount();
    const down = await failing();
    const alsoDown = await failing();
    const witness = await receiver();
    await subscribe(account.api_key, down.url, ['vote.created', ...OPERATIONAL]);
    const alsoDownHook = await subscribe(account.api_key, alsoDown.url, OPERATIONAL);
    await subscribe(account.api_key, witness.url, OPERATIONAL);

    await vote(account.api_key);
    await alsoDown.waitFor(3, 25_000);
    await sleep(6000);

    // The vote's three failures made one notice; its three failures at the second endpoint made none.
    expect(down.received.map(typeOf)).toEqual(['vote.created', 'vote.created', 'vote.created']);
    expect(alsoDown.received.map(typeOf)).toEqual(Array(3).fill('webhook.attempts.exhausted'));
    expect(new Set(alsoDown.received.map((d) => d.headers['x-webhook-id'])).size).toBe(1);
    expect(witness.received).toHaveLength(1);
    expect(JSON.parse(witness.received[0]!.body)).toMatchObject({ event_type: 'vote.created' });
    expect(ofType(witness, 'webhook.attempts.exhausted')[0]!.headers['x-webhook-id']).toBe(
      alsoDown.received[0]!.headers['x-webhook-id'],
    );
    const log = await api('GET', `/webhooks/${alsoDownHook.id}/deliveries?status=failed`, { key: account.api_key });
    expect(log.body).toHaveLength(3);
  }, 60_000);
});
