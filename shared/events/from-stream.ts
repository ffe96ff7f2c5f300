// Which committed writes are events: derived from DynamoDB stream records, so an event exists if and only if its
// write committed (a failed transaction leaves no record; a committed one always does).
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { eventOfTransition, PET_MEDIA_LIFECYCLE } from '../domain/media/lifecycle.ts';
import { asPublicRequest, presentPublicRequest, REQUEST_ITEM_TYPE } from '../domain/public-requests/request.ts';
import { asReview, presentReview } from '../domain/reviews/review.ts';
import { asMeasurement, MEASUREMENT_ITEM_TYPE, measurementEventBody } from '../domain/respiration/measurement.ts';
import {
  ATTEMPTS_EXHAUSTED,
  attemptsExhaustedBody,
  ENDPOINT_DISABLED,
  endpointDisabledBody,
  exhaustsAttempts,
  isDisabling,
} from '../domain/webhooks/operational-events.ts';
import { EVENT_CATALOGUE, type DomainEvent, type EventName } from './catalogue.ts';
import { publicMediaUrl } from '../media/public-url.ts';

type Item = Record<string, unknown>;

const decode = (image: Record<string, unknown> | undefined): Item | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** The event's id derives from `origin`: by default the stream record, which a retried read of the stream repeats. */
function event<N extends EventName>(
  type: N,
  record: DynamoDBRecord,
  item: Item,
  resource: unknown,
  mediaBaseUrl: string,
  origin = record.eventID,
): DomainEvent<N> {
  const parsed = EVENT_CATALOGUE[type].resource.parse(withUrl(resource, mediaBaseUrl)) as DomainEvent<N>['resource'];
  return {
    id: `evt_${createHash('sha256').update(`${origin}:${type}`).digest('hex').slice(0, 24)}`,
    type,
    account_id: String(item.account_id),
    occurred_at: new Date((record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000).toISOString(),
    country_code: typeof item.country_code === 'string' ? item.country_code : null,
    resource: parsed,
  };
}

const withUrl = (resource: unknown, mediaBaseUrl: string) =>
  resource && typeof resource === 'object' && 'file' in resource
    ? { ...resource, url: publicMediaUrl(mediaBaseUrl, String((resource as { file: unknown }).file)) }
    : resource;

export function eventsFromRecord(record: DynamoDBRecord, mediaBaseUrl: string): DomainEvent[] {
  const next = decode(record.dynamodb?.NewImage as Record<string, unknown> | undefined);
  const previous = decode(record.dynamodb?.OldImage as Record<string, unknown> | undefined);
  if (!next) return [];
  if (record.eventName === 'INSERT' && next.type === 'Vote')
    return [event('vote.created', record, next, next, mediaBaseUrl)];
  if (record.eventName === 'INSERT' && next.type === 'Favourite')
    return [event('favourite.created', record, next, next, mediaBaseUrl)];
  if (next.type === 'PetMedia') return petMediaEvents(record, next, previous);
  if (next.type === 'BcsReview') return reviewEvents(record, next, previous);
  if (next.type === REQUEST_ITEM_TYPE) return publicRequestEvents(record, next, previous, mediaBaseUrl);
  if (next.type === 'Webhook')
    return isDisabling(next, previous) ? [event(ENDPOINT_DISABLED, record, next, endpointDisabledBody(next), '')] : [];
  if (next.type === 'WebhookDelivery') return exhaustedEvents(record, next, previous);
  if (next.type === MEASUREMENT_ITEM_TYPE) return measurementEvents(record, next, previous);
  if (next.type !== 'Image' || next.source !== 'upload') return [];
  const events: DomainEvent[] = [];
  // Status changes emit what the media lifecycle table says (an upload is announced when its object has arrived,
  // awaiting_upload → pending, whichever path it took; a verdict is announced once).
  const changed = eventOfTransition('photo', previous?.status, next.status);
  if (changed === 'image.uploaded') events.push(event(changed, record, next, next, mediaBaseUrl));
  if (changed === 'image.processed')
    events.push(event(changed, record, next, { ...next, reason: next.rejection_reason ?? null }, mediaBaseUrl));
  if (!previous?.labels && Array.isArray(next.labels)) {
    events.push(
      event(
        'image.labels_created',
        record,
        next,
        { id: next.id, labels: next.labels, source: next.label_source ?? 'unknown' },
        mediaBaseUrl,
      ),
    );
  }
  return events;
}

/**
 * Pet photos and videos: the lifecycle table names the event of each committed transition; bodies carry the pet and
 * its integrator ids but no URL (pet media is private). Portraits emit nothing (docs/decisions.md#portraits).
 */
function petMediaEvents(record: DynamoDBRecord, next: Item, previous: Item | undefined): DomainEvent[] {
  const pet = {
    pet_id: next.pet_id,
    kind: next.kind,
    sub_id: next.sub_id ?? null,
    external_owner_id: next.external_owner_id ?? null,
  };
  const events: DomainEvent[] = [];
  const lifecycle = PET_MEDIA_LIFECYCLE[next.kind as keyof typeof PET_MEDIA_LIFECYCLE];
  const name = lifecycle && previous ? eventOfTransition(lifecycle, previous.status, next.status) : undefined;
  if (name === 'image.uploaded') {
    const body = {
      ...pet,
      id: next.id,
      url: null,
      breed_ids: [],
      width: next.width ?? null,
      height: next.height ?? null,
      mime_type: next.content_type ?? null,
      status: next.status,
      created_at: next.created_at,
    };
    events.push(event('image.uploaded', record, next, body, ''));
  }
  if (name === 'image.processed') {
    const body = {
      ...pet,
      id: next.id,
      status: next.status,
      reason: next.reason ?? null,
      width: next.width ?? null,
      height: next.height ?? null,
      ...(next.kind === 'video' && { duration_s: next.duration_s ?? null, codec: next.codec ?? null }),
    };
    events.push(event('image.processed', record, next, body, ''));
  }
  if (next.kind === 'photo' && !previous?.labels && Array.isArray(next.labels))
    events.push(
      event(
        'image.labels_created',
        record,
        next,
        { ...pet, id: next.id, labels: next.labels, source: next.label_source ?? 'unknown' },
        '',
      ),
    );
  return events;
}

/**
 * An event's last attempt at an endpoint failed. The id derives from the endpoint and the event, not the log item: a
 * worker that logs that attempt twice (its batch retried) announces one event, which receivers dedupe by its id.
 */
function exhaustedEvents(record: DynamoDBRecord, next: Item, previous: Item | undefined): DomainEvent[] {
  const delivered = next.event as Item | undefined;
  if (previous || !delivered || !exhaustsAttempts(next)) return [];
  const origin = `${next.webhook_id}:${next.event_id}`;
  const account = { account_id: delivered.account_id };
  return [event(ATTEMPTS_EXHAUSTED, record, account, attemptsExhaustedBody(next), '', origin)];
}

/** A review is announced when it is created and once when it leaves `pending` (completed or rejected). */
function reviewEvents(record: DynamoDBRecord, next: Item, previous: Item | undefined): DomainEvent[] {
  const body = () => presentReview(asReview(next));
  if (record.eventName === 'INSERT') return [event('pet.bcs.review_requested', record, next, body(), '')];
  if (previous?.status === 'pending' && next.status !== 'pending')
    return [event('pet.bcs.reviewed', record, next, body(), '')];
  return [];
}

/** A public request is announced when it is made and once when an administrator decides it (withdrawals are not). */
function publicRequestEvents(
  record: DynamoDBRecord,
  next: Item,
  previous: Item | undefined,
  mediaBaseUrl: string,
): DomainEvent[] {
  const body = () => presentPublicRequest(asPublicRequest(next), mediaBaseUrl);
  if (record.eventName === 'INSERT') return [event('image.public_request.created', record, next, body(), '')];
  if (previous?.status !== 'pending') return [];
  if (next.status === 'approved') return [event('image.public_request.approved', record, next, body(), '')];
  if (next.status === 'denied') return [event('image.public_request.denied', record, next, body(), '')];
  return [];
}

/**
 * A measurement is announced once, when it leaves `processing` (completed or failed), and so is the alert its
 * completing write holds. The alert's id derives from the measurement, not the stream record: one measurement, one
 * alert id, whatever reads the change again.
 */
function measurementEvents(record: DynamoDBRecord, next: Item, previous: Item | undefined): DomainEvent[] {
  if (previous?.status !== 'processing' || next.status === 'processing') return [];
  const measurement = asMeasurement(next);
  const body = measurementEventBody(measurement);
  return [
    event('pet.respiratory_rate.completed', record, next, body, ''),
    ...(measurement.alert
      ? [event('pet.respiratory_rate.alert', record, next, body, '', `${measurement.pet_id}:${measurement.id}`)]
      : []),
  ];
}
