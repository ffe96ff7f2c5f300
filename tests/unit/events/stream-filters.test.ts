import { describe, expect, it } from 'vitest';
import { consumers } from '../../../events/consumers.ts';
import type { StreamSource } from '../../../shared/events/consumer-def.ts';
import { recordFilter, streamFilterPatterns } from '../../../shared/events/stream-filters.ts';

const sourceOf = (id: string) => consumers.find((c) => c.id === id)!.source as StreamSource;
const filterOf = (id: string) => recordFilter(streamFilterPatterns(sourceOf(id)));

const record = (eventName: string, image: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  eventName,
  dynamodb: eventName === 'REMOVE' ? { OldImage: image } : { NewImage: image },
  ...extra,
});

describe('the stream consumers’ filters, as the local runner applies them', () => {
  it('wakes the event router for items that can become events, and not for the attempt log or slot writes', () => {
    const accepts = filterOf('events.route');

    expect(accepts(record('INSERT', { type: { S: 'Vote' } }))).toBe(true);
    expect(accepts(record('MODIFY', { type: { S: 'Image' } }))).toBe(true);
    expect(accepts(record('INSERT', { type: { S: 'WebhookDelivery' } }))).toBe(false);
    expect(accepts(record('MODIFY', { type: { S: 'Webhook' } }))).toBe(false);
    expect(accepts(record('REMOVE', { type: { S: 'Vote' } }))).toBe(false);
  });

  it('hands the upload expiry only DynamoDB’s own removals of uploads still awaiting their bytes', () => {
    const accepts = filterOf('media.expire-uploads');
    const awaiting = { type: { S: 'Image' }, status: { S: 'awaiting_upload' } };
    const ttl = { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } };

    expect(accepts(record('REMOVE', awaiting, ttl))).toBe(true);
    expect(accepts(record('REMOVE', awaiting))).toBe(false);
    expect(accepts(record('REMOVE', { ...awaiting, status: { S: 'approved' } }, ttl))).toBe(false);
    expect(accepts(record('INSERT', awaiting, ttl))).toBe(false);
  });

  it('matches a pattern listing several values when the field holds any of them, and treats patterns as alternatives', () => {
    const accepts = recordFilter([{ eventName: ['INSERT', 'MODIFY'] }, { dynamodb: { Keys: { pk: { S: ['X'] } } } }]);

    expect(accepts({ eventName: 'MODIFY' })).toBe(true);
    expect(accepts({ eventName: 'REMOVE', dynamodb: { Keys: { pk: { S: 'X' } } } })).toBe(true);
    expect(accepts({ eventName: 'REMOVE', dynamodb: { Keys: { pk: { S: 'Y' } } } })).toBe(false);
    expect(accepts({})).toBe(false);
  });

  it('refuses, when the filter is made, a rule it cannot apply as Lambda would', () => {
    expect(() => recordFilter([{ dynamodb: { NewImage: { type: { S: [{ prefix: 'Vo' }] } } } }])).toThrow(
      /not supported by the local stream runner/,
    );
    expect(() => recordFilter([{ eventName: 'INSERT' }])).toThrow(/must be a list of values or an object/);
  });
});
