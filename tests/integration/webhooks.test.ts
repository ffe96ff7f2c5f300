import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, inject, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { webhookKey } from '../../shared/db/keys.ts';
import { SLOT_LEASE_MS } from '../../shared/domain/webhooks/attempts.ts';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { depsOnLocalStack } from '../support/unreachable-store.ts';
import { api, createAccount, send, subscribe } from '../support/api-client.ts';
import { until } from '../support/polling.ts';
import { receiversClosedAfterEach } from '../support/receiver.ts';

const receiver = receiversClosedAfterEach();

async function anImage(key: string): Promise<string> {
  return (await api('GET', '/images/search?order=ASC&limit=1', { key })).body[0].id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhooks end to end (stream → router → events queue → dispatcher → deliveries queue → deliverer)', () => {
  it('delivers one signed vote.created per committed vote that the receiver verifies, and nothing for a refused vote', async () => {
    const account = await createAccount();
    const r = await receiver();
    const hook = await subscribe(account.api_key, r.url, ['vote.created', 'not.a.real.event']);
    const image = await anImage(account.api_key);

    const vote = await api('POST', '/votes', {
      key: account.api_key,
      body: { image_id: image, value: 1, sub_id: 'hooked' },
      headers: { 'cloudfront-viewer-country': 'NL' },
    });
    await api('POST', '/votes', { key: account.api_key, body: { image_id: 'no-such-image', value: 1 } });
    const [delivery] = await r.waitFor(1);
    await sleep(1500);

    expect(r.received).toHaveLength(1);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({
      id: vote.body.id,
      image_id: image,
      value: 1,
      _metadata: { event_type: 'vote.created', country_code: 'NL' },
    });
    const check = verifySignature({
      header: String(delivery!.headers['x-webhook-signature']),
      rawBody: delivery!.body,
      secret: hook.signing_secret,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(check.ok).toBe(true);
    expect(delivery!.headers['x-webhook-id']).toMatch(/^evt_/);
  });

  it('signs every delivery for both kinds of verifier: Stripe-style X-Webhook-Signature and Standard Webhooks', async () => {
    const account = await createAccount();
    const r = await receiver();
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const rotated = await api('POST', `/webhooks/${hook.id}/rotate-secret`, { key: account.api_key });
    const image = await anImage(account.api_key);

    await api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1 } });
    const [delivery] = await r.waitFor(1);
    const { body, headers } = delivery!;
    const secret: string = rotated.body.signing_secret;

    expect(Stripe.webhooks.constructEvent(body, String(headers['x-webhook-signature']), secret)).toMatchObject({
      _metadata: { event_type: 'vote.created' },
    });
    expect(new Webhook(secret).verify(body, headers as Record<string, string>)).toMatchObject({ image_id: image });
    expect(headers['webhook-id']).toBe(headers['x-webhook-id']);
    expect(() => new Webhook(hook.signing_secret).verify(body, headers as Record<string, string>)).toThrow();
  });

  it('redelivers an event from the attempt log that carries it: same id and body, attempt 1 again', async () => {
    const account = await createAccount();
    const r = await receiver();
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const image = await anImage(account.api_key);
    await api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1 } });
    const [first] = await r.waitFor(1);
    const eventId = String(first!.headers['x-webhook-id']);
    const deliveries = () => api('GET', `/webhooks/${hook.id}/deliveries`, { key: account.api_key });
    await until(deliveries, (res) => res.body.length === 1);

    const redelivery = await api('POST', `/webhooks/${hook.id}/deliveries/${eventId}/redeliver`, {
      key: account.api_key,
    });
    const [, again] = await r.waitFor(2);

    expect(redelivery.body).toMatchObject({ message: 'QUEUED', event_id: eventId, event_type: 'vote.created' });
    expect(again!.headers['x-webhook-id']).toBe(eventId);
    expect(JSON.parse(again!.body)).toEqual(JSON.parse(first!.body));
    const log = await until(deliveries, (res) => res.body.length === 2);
    expect(log.body.map((a: { event_id: string; attempt: number }) => [a.event_id, a.attempt])).toEqual([
      [eventId, 1],
      [eventId, 1],
    ]);
    expect(
      (await api('POST', `/webhooks/${hook.id}/deliveries/evt_never_sent/redeliver`, { key: account.api_key })).status,
    ).toBe(404);
  });

  it('announces an upload with image.uploaded, image.processed and image.labels_created', async () => {
    const account = await createAccount();
    const r = await receiver();
    await subscribe(account.api_key, r.url, ['image.uploaded', 'image.processed', 'image.labels_created']);
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        await sharp({ create: { width: 40, height: 30, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      ]),
      'p.png',
    );

    const upload = await send('POST', '/images/upload', { headers: { 'x-api-key': account.api_key }, body: form });
    const received = await r.waitFor(3);

    expect(upload.status).toBe(201);
    expect(received.map((d) => JSON.parse(d.body)._metadata.event_type).sort()).toEqual([
      'image.labels_created',
      'image.processed',
      'image.uploaded',
    ]);
  });

  it("stamps every event type's _metadata.timestamp in ISO 8601 within seconds of the write that caused it", async () => {
    const account = await createAccount();
    const r = await receiver();
    // Pet events (reviews, respiratory rate) need a pet and its analysis, public-request events an administrator's
    // decision, operational events a failing endpoint: their own tests check their stamps.
    const eventTypes = (await api('GET', '/webhooks/topics', { key: account.api_key })).body
      .map((t: { name: string }) => t.name)
      .filter(
        (name: string) => !['pet.', 'image.public_request.', 'webhook.'].some((prefix) => name.startsWith(prefix)),
      );
    expect(eventTypes).toHaveLength(5);
    await subscribe(account.api_key, r.url, eventTypes);
    const image = await anImage(account.api_key);
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        await sharp({ create: { width: 40, height: 30, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      ]),
      'p.png',
    );

    const writesStarted = Date.now();
    await api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1 } });
    await api('POST', '/favourites', { key: account.api_key, body: { image_id: image } });
    await send('POST', '/images/upload', { headers: { 'x-api-key': account.api_key }, body: form });
    const received = await r.waitFor(5);

    const stamps: Record<string, { timestamp: string; receivedAt: number }> = Object.fromEntries(
      received.map((d) => {
        const { _metadata } = JSON.parse(d.body);
        return [_metadata.event_type, { timestamp: _metadata.timestamp as string, receivedAt: d.at }];
      }),
    );
    expect(Object.keys(stamps).sort()).toEqual([...eventTypes].sort());
    for (const [type, { timestamp, receivedAt }] of Object.entries(stamps)) {
      expect(timestamp, type).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      // Stream records carry their creation time rounded down to the second.
      expect(Date.parse(timestamp), type).toBeGreaterThanOrEqual(Math.floor(writesStarted / 1000) * 1000);
      expect(Date.parse(timestamp), type).toBeLessThanOrEqual(receivedAt);
      expect(receivedAt - Date.parse(timestamp), type).toBeLessThan(5000);
    }
  });

  it('retries a failing receiver twice with growing delays, then stops: three attempts in all', async () => {
    const account = await createAccount();
    const r = await receiver(() => ({ status: 500 }));
    const hook = await subscribe(account.api_key, r.url, ['favourite.created']);

    await api('POST', '/favourites', { key: account.api_key, body: { image_id: await anImage(account.api_key) } });
    await r.waitFor(3, 15_000);
    await sleep(3000);

    expect(r.received).toHaveLength(3);
    const [a, b, c] = r.received.map((d) => d.at);
    expect(b! - a!).toBeGreaterThanOrEqual(900);
    expect(c! - b!).toBeGreaterThanOrEqual(1900);
    expect(new Set(r.received.map((d) => d.headers['x-webhook-id'])).size).toBe(1);
    const log = await api('GET', `/webhooks/${hook.id}/deliveries?limit=10`, { key: account.api_key });
    expect(log.body.map((d: { attempt: number }) => d.attempt).sort()).toEqual([1, 2, 3]);
  });

  it("logs each attempt's reply (status, headers, the first 4 KiB cut on a character) and finds it by filters", async () => {
    const account = await createAccount();
    // 4095 bytes of ASCII, then a 4-byte character the 4 KiB cut splits.
    const reply = `${'x'.repeat(4095)}🐶 and more`;
    const r = await receiver(() => ({
      status: 503,
      body: reply,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30', 'x-secret-header': 'kept out' },
    }));
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const before = new Date().toISOString();
    const vote = await api('POST', '/votes', {
      key: account.api_key,
      body: { image_id: await anImage(account.api_key), value: 1 },
    });
    await r.waitFor(3);
    const path = `/webhooks/${hook.id}/deliveries`;
    const logged = await until(
      () =>
        api('GET', `${path}?status=failed&event_type=vote.created&since=${before}&limit=2`, { key: account.api_key }),
      (res) => res.body.length === 2 && res.headers.get('next-cursor') !== null,
    );

    expect(logged.body[0].response).toEqual({
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'retry-after': '30',
      },
      body: 'x'.repeat(4095),
      body_binary: false,
      body_truncated: true,
    });
    const rest = await until(
      () => api('GET', `${path}?status=failed&cursor=${logged.headers.get('next-cursor')}`, { key: account.api_key }),
      (res) => res.body.length === 1,
    );
    expect(rest.headers.get('next-cursor')).toBeNull();
    expect((await api('GET', `${path}?status=succeeded`, { key: account.api_key })).body).toEqual([]);
    expect((await api('GET', `${path}?until=${before}`, { key: account.api_key })).body).toEqual([]);

    const eventId = logged.body[0].event_id;
    const one = await api('GET', `${path}/${eventId}`, { key: account.api_key });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ event_id: eventId, event_type: 'vote.created', delivered: false });
    expect(one.body.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
    expect(JSON.parse(r.received[0]!.body).id).toBe(vote.body.id);
    expect((await api('GET', `${path}/evt_unknown`, { key: account.api_key })).status).toBe(404);
  });

  it('counts a reply slower than 5 seconds as a failure and retries', async () => {
    const account = await createAccount();
    const r = await receiver((n) => (n === 1 ? { status: 204, delayMs: 6000 } : { status: 204 }));
    await subscribe(account.api_key, r.url, ['favourite.created']);

    await api('POST', '/favourites', { key: account.api_key, body: { image_id: await anImage(account.api_key) } });
    await r.waitFor(2, 15_000);

    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.at - r.received[0]!.at).toBeGreaterThanOrEqual(5000);
  }, 30_000);

  it('signs with the new secret as soon as it is rotated', async () => {
    const account = await createAccount();
    const r = await receiver();
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const rotated = await api('POST', `/webhooks/${hook.id}/rotate-secret`, { key: account.api_key });

    await api('POST', '/votes', { key: account.api_key, body: { image_id: await anImage(account.api_key), value: 0 } });
    const [delivery] = await r.waitFor(1);
    const verify = (secret: string) =>
      verifySignature({
        header: String(delivery!.headers['x-webhook-signature']),
        rawBody: delivery!.body,
        secret,
        nowSeconds: Math.floor(Date.now() / 1000),
      }).ok;

    expect(rotated.body.signing_secret).toMatch(/^whsec_/);
    expect(verify(rotated.body.signing_secret)).toBe(true);
    expect(verify(hook.signing_secret)).toBe(false);
  });

  it('allows five endpoints per account even under concurrent creates, and a deleted one frees its place', async () => {
    const account = await createAccount();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        api('POST', '/webhooks', {
          key: account.api_key,
          body: { url: `http://127.0.0.1:9/h${n}`, description: 'd', enabled_events: ['vote.created'] },
        }),
      ),
    );

    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.code === 'webhook_limit_reached')).toBe(true);
    expect((await api('GET', '/webhooks', { key: account.api_key })).body).toHaveLength(5);

    // Deleting one frees its place, and only its place.
    const created = results.find((r) => r.status === 200)!.body;
    expect((await api('DELETE', `/webhooks/${created.id}`, { key: account.api_key })).status).toBe(200);
    const another = (n: number) =>
      api('POST', '/webhooks', {
        key: account.api_key,
        body: { url: `http://127.0.0.1:9/again${n}`, description: 'd', enabled_events: ['vote.created'] },
      });
    expect((await another(1)).status).toBe(200);
    expect((await another(2)).body).toMatchObject({ code: 'webhook_limit_reached' });
  });

  it('disables an endpoint after exactly 10 failed attempts in a row, even from parallel events, and e-mails the owner once', async () => {
    const account = await createAccount({ email: 'owner@example.test' });
    const r = await receiver(() => ({ status: 503 }));
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const image = await anImage(account.api_key);

    // Six events at once: eighteen attempts if nothing stopped them, from parallel workers.
    await Promise.all(
      Array.from({ length: 6 }, () =>
        api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1 } }),
      ),
    );
    await r.waitFor(10, 20_000);
    await sleep(4000);

    expect(r.received).toHaveLength(10);
    expect((await api('GET', `/webhooks/${hook.id}`, { key: account.api_key })).body.status).toBe('disabled');
    const outbox = inject('localEnv').OUTBOX_DIR!;
    const mails = readdirSync(outbox)
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes(hook.id));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('owner@example.test');
  }, 40_000);

  it('delivers again once the lease of slots a crashed worker held runs out', async () => {
    const account = await createAccount();
    const r = await receiver();
    const hook = await subscribe(account.api_key, r.url, ['vote.created']);
    const image = await anImage(account.api_key);
    // A worker took all ten slots a lease ago and died before giving them back.
    const deps = depsOnLocalStack();
    const key = webhookKey(account.id, hook.id);
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: key,
        UpdateExpression: 'SET attempt_slots = :ten, slots_taken_at = :taken',
        ExpressionAttributeValues: { ':ten': 10, ':taken': Date.now() - SLOT_LEASE_MS },
      }),
    );

    const vote = await api('POST', '/votes', { key: account.api_key, body: { image_id: image, value: 1 } });
    const [delivery] = await r.waitFor(1, 10_000);

    expect(JSON.parse(delivery!.body)).toMatchObject({ id: vote.body.id });
    await sleep(500);
    const { Item } = await deps.ddb.send(
      new GetCommand({ TableName: deps.config.tableName, Key: key, ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ attempt_slots: 0, consecutive_failures: 0 });
    deps.ddb.destroy();
  }, 20_000);
});
