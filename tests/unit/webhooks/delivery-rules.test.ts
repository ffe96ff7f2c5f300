import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { consumers } from '../../../events/consumers.ts';
import { SLOT_LEASE_MS } from '../../../shared/domain/webhooks/attempts.ts';
import { type DeliveryJob, retryAfterFailure } from '../../../shared/domain/webhooks/delivery-queue.ts';
import type { StoredEvent } from '../../../shared/domain/webhooks/stored-events.ts';
import { reachedDisableThreshold } from '../../../shared/domain/webhooks/webhook.ts';
import { describeFailure } from '../../../shared/webhooks/failure.ts';
import { buildDeliveryRequest, judgeReply } from '../../../shared/webhooks/transport.ts';
import { generateSigningSecret, verifySignature } from '../../../shared/webhooks/signature.ts';

const job = (attempt: number): DeliveryJob => ({
  webhook_id: 'wh-1',
  attempt,
  event: {
    id: 'evt_1',
    event_type: 'vote.created',
    account_id: 'acc-1',
    occurred_at: '2026-11-22T09:59:58.000Z',
    country_code: null,
    resource: { id: 1 },
  },
});
const noJitter = () => 0;
const maxJitter = () => 0.999_999;

describe('retries', () => {
  it('queues attempt 2 after 1 s and attempt 3 after 2 s', () => {
    expect(retryAfterFailure(job(1), noJitter)).toEqual({ job: job(2), delaySeconds: 1 });
    expect(retryAfterFailure(job(2), noJitter)).toEqual({ job: job(3), delaySeconds: 2 });
  });

  it('keeps whole-second SQS delays at 1 s and 2 s whatever the jitter', () => {
    expect(retryAfterFailure(job(1), maxJitter)?.delaySeconds).toBe(1);
    expect(retryAfterFailure(job(2), maxJitter)?.delaySeconds).toBe(2);
  });

  it('stops after the third attempt', () => {
    expect(retryAfterFailure(job(3), noJitter)).toBeUndefined();
  });
});

describe('the disable rule', () => {
  it('disables from the tenth failure in a row on', () => {
    expect([1, 9, 10, 11].map(reachedDisableThreshold)).toEqual([false, false, true, true]);
  });
});

describe('the slot lease', () => {
  it('outlasts the longest run of the deliverer, so only slots of a worker that died are taken back', () => {
    const deliverer = consumers.find((consumer) => consumer.id === 'webhooks.deliver')!;
    expect(deliverer.timeoutSeconds * 1000).toBeLessThan(SLOT_LEASE_MS);
  });
});

describe('judging a reply', () => {
  it('counts any 2xx as success and everything else as failure', () => {
    expect([200, 202, 204, 299].map((status) => judgeReply(status).succeeded)).toEqual([true, true, true, true]);
    expect([100, 400, 410, 500, 503].map((status) => judgeReply(status).succeeded)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('fails a redirect and says it was not followed', () => {
    expect(judgeReply(301)).toEqual({ succeeded: false, error: 'redirect not followed' });
    expect(judgeReply(308)).toEqual({ succeeded: false, error: 'redirect not followed' });
  });

  it('describes a failure by its error, or else by its status', () => {
    expect(describeFailure({ statusCode: 500, error: null })).toBe('HTTP 500');
    expect(describeFailure({ statusCode: null, error: 'no reply within 5000 ms' })).toBe('no reply within 5000 ms');
  });
});

describe('building a delivery', () => {
  const SECRET = 'whsec_unit-test-secret';
  const T = 1_795_341_600;
  const event: StoredEvent = {
    id: 'evt_1',
    event_type: 'favourite.created',
    account_id: 'acc-1',
    occurred_at: '2026-11-22T09:59:58.000Z',
    country_code: 'DE',
    resource: { id: 'fav-1', image_id: 'img-1', sub_id: null, created_at: '2026-11-22T09:59:58.000Z' },
  };

  it('sends the resource with _metadata, signed over the exact body at the attempt time', () => {
    const { body, headers } = buildDeliveryRequest('https://hooks.example.com/pets', event, SECRET, T);

    expect(JSON.parse(body)).toEqual({
      ...event.resource,
      _metadata: { event_type: 'favourite.created', timestamp: '2026-11-22T09:59:58.000Z', country_code: 'DE' },
    });
    expect(
      verifySignature({ header: headers['X-Webhook-Signature'], rawBody: body, secret: SECRET, nowSeconds: T }),
    ).toEqual({ ok: true, timestamp: T });
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Webhook-Id': 'evt_1',
      'X-Webhook-Event': 'favourite.created',
      'User-Agent': 'PetAPI-Webhooks/1.0',
    });
  });

  it('leaves out the country when it is not known', () => {
    const { body } = buildDeliveryRequest(
      'https://hooks.example.com/pets',
      { ...event, country_code: null },
      SECRET,
      T,
    );

    expect(JSON.parse(body)._metadata).toEqual({
      event_type: 'favourite.created',
      timestamp: '2026-11-22T09:59:58.000Z',
    });
  });

  it('sends no signature without a secret', () => {
    const { headers } = buildDeliveryRequest('https://hooks.example.com/pets', event, undefined, T);
    expect(Object.keys(headers).filter((name) => /signature/i.test(name))).toEqual([]);
  });

  it('adds the Standard Webhooks headers, with the event id, for a secret that is a Standard Webhooks key', () => {
    const secret = generateSigningSecret();
    const { body, headers } = buildDeliveryRequest('https://hooks.example.com/pets', event, secret, T);

    expect(headers).toMatchObject({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(T) });
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_1', new Date(T * 1000), body));
    expect(buildDeliveryRequest('https://hooks.example.com/pets', event, SECRET, T).headers).not.toHaveProperty(
      'webhook-signature',
    );
  });

  it('formats the message for a chat service and signs that body', () => {
    const { body, headers } = buildDeliveryRequest('https://hooks.slack.com/services/T000/B000/XXXX', event, SECRET, T);

    expect(JSON.parse(body)).toHaveProperty('blocks');
    expect(
      verifySignature({ header: headers['X-Webhook-Signature'], rawBody: body, secret: SECRET, nowSeconds: T }).ok,
    ).toBe(true);
  });
});
