import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { api, createAccount, subscribe } from '../support/api-client.ts';
import { until } from '../support/polling.ts';
import { type Received, startReceiver } from '../support/receiver.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(reply?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const eventIds = (received: Received[]) => received.map((d) => String(d.headers['x-webhook-id']));

async function votes(key: string, count: number) {
  const image = (await api('GET', '/images/search?order=ASC&limit=1', { key })).body[0].id;
  await Promise.all(
    Array.from({ length: count }, () => api('POST', '/votes', { key, body: { image_id: image, value: 1 } })),
  );
}

const recovery = (key: string, hookId: string, recoveryId: string) =>
  until(
    () => api('GET', `/webhooks/${hookId}/recoveries/${recoveryId}`, { key }),
    (res) => res.body.state === 'completed',
  );

describe('recovering an outage in one call (POST /webhooks/{id}/recover)', () => {
  it('sends the 3 events of an outage once each, signed with the secret rotated since, and nothing on a repeat', async () => {
    const account = await createAccount();
    const since = new Date(Date.now() - 60_000).toISOString();
    // Down for the first 9 requests (3 events × 3 attempts, under the disabling threshold of 10), then up.
    const r = await receiver((n) => ({ status: n <= 9 ? 503 : 204 }));
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    await votes(account.api_key, 3);
    await r.waitFor(9, 20_000);
    await sleep(3000);
    expect(r.received).toHaveLength(9);
    const rotated = await api('POST', `/webhooks/${hook.id}/rotate-secret`, { key: account.api_key });

    const recover = await api('POST', `/webhooks/${hook.id}/recover`, { key: account.api_key, body: { since } });
    expect(recover.status).toBe(202);
    expect(recover.body).toMatchObject({ queued: 3, to_endpoint_id: hook.id });
    await r.waitFor(12, 15_000);
    await sleep(2000);

    expect(r.received).toHaveLength(12);
    const recovered = r.received.slice(9);
    expect(new Set(eventIds(recovered))).toEqual(new Set(eventIds(r.received.slice(0, 9))));
    expect(new Set(eventIds(recovered)).size).toBe(3);
    const verifies = (delivery: Received, secret: string) =>
      verifySignature({
        header: String(delivery.headers['x-webhook-signature']),
        rawBody: delivery.body,
        secret,
        nowSeconds: Math.floor(Date.now() / 1000),
      }).ok;
    for (const delivery of recovered) {
      expect(verifies(delivery, rotated.body.signing_secret)).toBe(true);
      expect(verifies(delivery, hook.signing_secret)).toBe(false);
    }
    expect((await recovery(account.api_key, hook.id, recover.body.id)).body).toMatchObject({
      state: 'completed',
      queued: 3,
      delivered: 3,
      failed: 0,
    });

    // Recovered and delivered: a second call finds nothing to send.
    const again = await api('POST', `/webhooks/${hook.id}/recover`, { key: account.api_key, body: { since } });
    expect(again.body).toMatchObject({ queued: 0 });
    await sleep(2000);
    expect(r.received).toHaveLength(12);
  }, 60_000);

  it('sends a disabled endpoint’s failed events to the endpoint that replaced it, each exactly once', async () => {
    const account = await createAccount();
    const since = new Date(Date.now() - 60_000).toISOString();
    const down = await receiver(() => ({ status: 503 }));
    const dead = await subscribe(account.api_key, down.url, ['vote.created']);
    await votes(account.api_key, 4);
    await down.waitFor(10, 20_000);
    await sleep(4000);
    expect((await api('GET', `/webhooks/${dead.id}`, { key: account.api_key })).body.status).toBe('disabled');
    const failed = new Set(eventIds(down.received));

    const up = await receiver();
    const replacement = await subscribe(account.api_key, up.url, ['vote.created']);
    const recover = await api('POST', `/webhooks/${dead.id}/recover`, {
      key: account.api_key,
      body: { since, to_endpoint_id: replacement.id },
    });
    expect(recover.status).toBe(202);
    expect(recover.body).toMatchObject({ queued: failed.size, to_endpoint_id: replacement.id });
    await up.waitFor(failed.size, 15_000);
    await sleep(2000);

    expect(up.received).toHaveLength(failed.size);
    expect(new Set(eventIds(up.received))).toEqual(failed);
    expect((await recovery(account.api_key, dead.id, recover.body.id)).body).toMatchObject({
      state: 'completed',
      delivered: failed.size,
    });
  }, 60_000);
});
