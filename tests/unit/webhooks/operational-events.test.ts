import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { consumers } from '../../../events/consumers.ts';
import { endpointConcerned } from '../../../shared/domain/webhooks/operational-events.ts';
import type { StreamSource } from '../../../shared/events/consumer-def.ts';
import { eventsFromRecord } from '../../../shared/events/from-stream.ts';
import { recordFilter, streamFilterPatterns } from '../../../shared/events/stream-filters.ts';
import { aStoredWebhook } from '../../support/factories/webhooks.ts';
import { streamRecord } from '../../support/stream-records.ts';

const record = streamRecord;

const enabled = aStoredWebhook({ id: 'wh-down', consecutive_failures: 9, encrypted_secret: 'cipher' });
const disabled = {
  ...enabled,
  status: 'disabled',
  consecutive_failures: 10,
  disabled_at: '2026-11-22T10:00:00.000Z',
  disabled_reason: '10 delivery attempts failed in a row (last: HTTP 503)',
  last_error: 'HTTP 503',
};

/** A logged attempt as the deliverer writes it, carrying the event it delivered. */
const attempt = (overrides: Record<string, unknown> = {}) => ({
  type: 'WebhookDelivery',
  id: 'att-3',
  webhook_id: 'wh-down',
  event_id: 'evt_vote',
  event_type: 'vote.created',
  attempt: 3,
  attempted_at: '2026-11-22T10:00:03.000Z',
  status_code: 500,
  error: null,
  duration_ms: 12,
  succeeded: false,
  response: null,
  event: {
    id: 'evt_vote',
    event_type: 'vote.created',
    account_id: 'acc-user',
    occurred_at: '2026-11-22T10:00:00.000Z',
    country_code: 'NL',
    resource: { id: 1 },
  },
  ...overrides,
});

describe('webhook.endpoint.disabled', () => {
  it('is made once, of the write that disabled the endpoint: its id, URL, last error and time, never its secret', () => {
    const events = eventsFromRecord(record('MODIFY', disabled, enabled), '');

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'webhook.endpoint.disabled',
      account_id: 'acc-user',
      country_code: null,
      resource: {
        webhook_id: 'wh-down',
        url: 'https://hooks.example.com/wh-down',
        last_error: 'HTTP 503',
        reason: '10 delivery attempts failed in a row (last: HTTP 503)',
        consecutive_failures: 10,
        disabled_at: '2026-11-22T10:00:00.000Z',
      },
    });
    expect(JSON.stringify(events)).not.toContain('cipher');
    // The same stream record read again is the same event.
    expect(eventsFromRecord(record('MODIFY', disabled, enabled), '')[0]!.id).toBe(events[0]!.id);
  });

  it('is not made by later writes to the disabled endpoint, by other endpoint writes or by its deletion', () => {
    const settledLater = { ...disabled, consecutive_failures: 11 };

    expect(eventsFromRecord(record('MODIFY', settledLater, disabled), '')).toEqual([]);
    expect(eventsFromRecord(record('MODIFY', { ...enabled, consecutive_failures: 3 }, enabled), '')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', enabled), '')).toEqual([]);
    expect(eventsFromRecord(record('REMOVE', undefined, disabled), '')).toEqual([]);
  });

  it('says an operator disabled it with no last error', () => {
    const byOperator = { ...enabled, status: 'disabled', disabled_at: 'now', disabled_reason: 'abuse report' };

    const [event] = eventsFromRecord(record('MODIFY', byOperator, enabled), '');

    expect(event!.resource).toMatchObject({ reason: 'abuse report', last_error: null });
  });
});

describe('webhook.attempts.exhausted', () => {
  it('is made of the logged third failed attempt: the event id and type and the last reply status', () => {
    const [event, ...rest] = eventsFromRecord(record('INSERT', attempt()), '');

    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'webhook.attempts.exhausted',
      account_id: 'acc-user',
      country_code: null,
      resource: {
        webhook_id: 'wh-down',
        event_id: 'evt_vote',
        event_type: 'vote.created',
        attempts: 3,
        last_status_code: 500,
        last_error: 'HTTP 500',
        last_attempted_at: '2026-11-22T10:00:03.000Z',
      },
    });
    expect(event!.resource).not.toHaveProperty('event');
  });

  it('keeps one id per endpoint and event when a retried batch logs the third attempt twice', () => {
    const [first] = eventsFromRecord(record('INSERT', attempt(), undefined, 'rec-1'), '');
    const [again] = eventsFromRecord(record('INSERT', attempt({ id: 'att-3b' }), undefined, 'rec-2'), '');
    const [otherEvent] = eventsFromRecord(record('INSERT', attempt({ event_id: 'evt_2' }), undefined, 'rec-3'), '');

    expect(again!.id).toBe(first!.id);
    expect(otherEvent!.id).not.toBe(first!.id);
  });

  it('is not made by a success, an attempt that will be retried, or a timeout-free first try', () => {
    expect(eventsFromRecord(record('INSERT', attempt({ succeeded: true, status_code: 200 })), '')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', attempt({ attempt: 2 })), '')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', attempt({ attempt: 1 })), '')).toEqual([]);
  });

  it('sends no reply status when none came', () => {
    const [event] = eventsFromRecord(record('INSERT', attempt({ status_code: null, error: 'timeout' })), '');

    expect(event!.resource).toMatchObject({ last_status_code: null, last_error: 'timeout' });
  });

  it('never loops: an operational event or a test event whose three attempts failed makes no notice', () => {
    for (const type of ['webhook.attempts.exhausted', 'webhook.endpoint.disabled', 'webhook.test'])
      expect(eventsFromRecord(record('INSERT', attempt({ event_type: type })), ''), type).toEqual([]);
  });
});

describe('who receives an operational event', () => {
  it('never the endpoint it is about; every other event goes to all its subscribers', () => {
    const [notice] = eventsFromRecord(record('MODIFY', disabled, enabled), '');
    const [exhausted] = eventsFromRecord(record('INSERT', attempt()), '');

    expect(endpointConcerned(notice!)).toBe('wh-down');
    expect(endpointConcerned(exhausted!)).toBe('wh-down');
    expect(endpointConcerned({ type: 'webhook.test', resource: { webhook_id: 'wh-1' } })).toBeUndefined();
    expect(endpointConcerned({ type: 'vote.created', resource: { id: 1 } })).toBeUndefined();
  });
});

describe('the event router’s stream filter', () => {
  const accepts = recordFilter(
    streamFilterPatterns(consumers.find((c) => c.id === 'events.route')!.source as StreamSource),
  );
  const wire = (eventName: string, image: Record<string, unknown>) => ({
    eventName,
    dynamodb: { NewImage: marshall(image, { removeUndefinedValues: true }) },
  });

  it('wakes the router for a disabled endpoint and a failed last attempt, not for ordinary delivery writes', () => {
    expect(accepts(wire('MODIFY', disabled))).toBe(true);
    expect(accepts(wire('INSERT', attempt()))).toBe(true);
    expect(accepts(wire('MODIFY', enabled))).toBe(false);
    expect(accepts(wire('INSERT', attempt({ attempt: 2 })))).toBe(false);
    expect(accepts(wire('INSERT', attempt({ succeeded: true })))).toBe(false);
  });

  it('stays within the five filters Lambda allows an event source by default', () => {
    expect(
      streamFilterPatterns(consumers.find((c) => c.id === 'events.route')!.source as StreamSource).length,
    ).toBeLessThanOrEqual(5);
  });
});
