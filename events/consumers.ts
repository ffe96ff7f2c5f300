// The consumer table: the asynchronous half's counterpart of functions/routes.ts. Plain data, read by the CDK app
// (infra/constructs/consumers.ts: one function, role, event source and queue settings per entry) and by the local
// service (scripts/local/service.ts: the same queues and runners), so deployed and local cannot drift apart.
// Declaring a consumer here is the only registration it needs.
import { PET_DERIVED_PREFIX, PET_PHOTOS_PREFIX, PET_VIDEOS_PREFIX } from '../shared/domain/media/objects.ts';
import { PORTRAIT_ATTEMPTS } from '../shared/domain/pets/portraits.ts';
import { MEASUREMENT_ITEM_TYPE } from '../shared/domain/respiration/measurement.ts';
import { SERVED_UPLOADS_PREFIX, UPLOADS_PREFIX } from '../shared/domain/images/uploads.ts';
import type { ConsumerDef, QueueDef } from '../shared/events/consumer-def.ts';

/** Every queue, with its dead-letter queue. Visibility timeouts follow from the consuming function's timeout. */
export const queues = {
  events: {
    env: 'EVENTS_QUEUE_URL',
    maxReceiveCount: 5,
    dlqHolds:
      'domain events that the webhook dispatcher could not handle, or whose delivery jobs SQS refused (parked at once)',
  },
  uploads: {
    env: 'UPLOADS_QUEUE_URL',
    maxReceiveCount: 5,
    dlqHolds: 'upload notifications the processor failed on five times',
    /** Objects created under this prefix of the media bucket are announced on this queue. */
    bucketPrefix: UPLOADS_PREFIX,
  },
  petPhotos: {
    env: 'PET_PHOTOS_QUEUE_URL',
    maxReceiveCount: 5,
    dlqHolds: 'pet photos the processor failed on five times',
    bucketPrefix: PET_PHOTOS_PREFIX,
  },
  petVideos: {
    env: 'PET_VIDEOS_QUEUE_URL',
    maxReceiveCount: 3,
    dlqHolds: 'pet videos the processor failed on three times',
    bucketPrefix: PET_VIDEOS_PREFIX,
  },
  portraits: {
    env: 'PORTRAITS_QUEUE_URL',
    maxReceiveCount: PORTRAIT_ATTEMPTS,
    dlqHolds: 'portrait requests that failed on every attempt (the last attempt marks the portrait rejected)',
  },
  webhookDeliveries: {
    env: 'WEBHOOK_DELIVERIES_QUEUE_URL',
    maxReceiveCount: 5,
    dlqHolds:
      'delivery jobs whose worker crashed five times, or whose next attempt SQS refused (parked at once; failed attempts are retried by the worker itself, not here)',
  },
} as const satisfies Record<string, QueueDef>;

export type QueueId = keyof typeof queues;

/** Retries of a failing stream batch before its failed records go to the consumer's on-failure queue. */
const STREAM_RETRY_ATTEMPTS = 10;

export const consumers = [
  {
    id: 'events.route',
    entry: 'stream/route-events',
    description: 'Turns committed writes (table stream) into domain events',
    source: { stream: 'table', retryAttempts: STREAM_RETRY_ATTEMPTS },
    batchSize: 100,
    timeoutSeconds: 30,
    access: { sendsTo: ['events'] },
  },
  {
    id: 'media.expire-uploads',
    entry: 'media/expire-uploads',
    description: 'Gives back what uploads whose bytes never arrived took (TTL removals of images and pet media)',
    // DynamoDB's own removals (TTL) of uploads still awaiting their bytes, nothing else.
    source: {
      stream: 'table',
      patterns: [
        {
          eventName: ['REMOVE'],
          userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
          dynamodb: { OldImage: { type: { S: ['Image', 'PetMedia'] }, status: { S: ['awaiting_upload'] } } },
        },
      ],
      retryAttempts: STREAM_RETRY_ATTEMPTS,
    },
    batchSize: 100,
    timeoutSeconds: 30,
    access: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  {
    id: 'images.process-upload',
    entry: 'images/process-upload',
    description: 'Photo uploads: checks the bytes, writes the EXIF-free served copy, approves or rejects, labels',
    source: { queue: 'uploads' },
    // One photo (up to MAX_PHOTO_PIXELS) decoded at a time, as for pet photos.
    batchSize: 1,
    timeoutSeconds: 120,
    memoryMb: 2048,
    native: 'sharp',
    access: {
      table: ['GetItem', 'UpdateItem'],
      // Rekognition reads the served copy with the caller's rights.
      media: { [UPLOADS_PREFIX]: ['read', 'delete'], [SERVED_UPLOADS_PREFIX]: ['read', 'write', 'delete'] },
      labels: 'detect',
    },
  },
  {
    id: 'pets.process-photo',
    entry: 'media/process-photo',
    description: 'Pet photos: checks the bytes, writes the EXIF-free display copy and thumbnail, labels',
    source: { queue: 'petPhotos' },
    batchSize: 1,
    timeoutSeconds: 120,
    memoryMb: 2048,
    native: 'sharp',
    access: {
      table: ['GetItem', 'UpdateItem', 'DeleteItem'],
      media: { [PET_PHOTOS_PREFIX]: ['read', 'delete'], [PET_DERIVED_PREFIX]: ['write', 'delete', 'list'] },
      labels: 'detect',
    },
  },
  {
    id: 'pets.process-video',
    entry: 'media/process-video',
    description: 'Pet videos: ffprobe facts, a poster frame and a copy without metadata (ffmpeg)',
    source: { queue: 'petVideos' },
    batchSize: 1,
    timeoutSeconds: 600,
    memoryMb: 3008,
    native: 'ffmpeg',
    // A 200 MB original, its metadata-free copy and the poster.
    tmpMb: 2048,
    access: {
      table: ['GetItem', 'UpdateItem', 'DeleteItem'],
      media: { [PET_VIDEOS_PREFIX]: ['read', 'delete'], [PET_DERIVED_PREFIX]: ['write', 'delete', 'list'] },
    },
  },
  {
    id: 'pets.generate-portrait',
    entry: 'media/generate-portrait',
    description: 'Pet portraits: draws a queued portrait with the stage image model',
    source: { queue: 'portraits' },
    batchSize: 1,
    timeoutSeconds: 120,
    memoryMb: 1536,
    native: 'sharp',
    access: {
      table: ['GetItem', 'UpdateItem'],
      media: { [PET_DERIVED_PREFIX]: ['read', 'write', 'delete'] },
      imageModel: 'invoke',
    },
  },
  {
    id: 'analysis.measure-respiratory-rate',
    entry: 'analysis/measure-respiratory-rate',
    description:
      'Pet respiratory rate: decodes the video (ffmpeg) and measures the breathing rate of a new measurement',
    // Only new measurements: the request's committed write is what starts the work.
    source: {
      stream: 'table',
      patterns: [
        {
          eventName: ['INSERT'],
          dynamodb: { NewImage: { type: { S: [MEASUREMENT_ITEM_TYPE] }, status: { S: ['processing'] } } },
        },
      ],
      retryAttempts: STREAM_RETRY_ATTEMPTS,
    },
    batchSize: 1,
    timeoutSeconds: 180,
    memoryMb: 2048,
    native: 'ffmpeg',
    // The served copy of a video of up to 200 MB.
    tmpMb: 1024,
    // Query: the pet's earlier completed measurements, the baseline an alert is judged against. PutItem and
    // ConditionCheckItem: the completed measurement's record of the pet, only while the pet exists.
    access: {
      table: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
      media: { [PET_DERIVED_PREFIX]: ['read'] },
    },
  },
  {
    id: 'webhooks.dispatch',
    entry: 'webhooks/dispatch-webhooks',
    description: 'Fans each event out to the subscribed webhook endpoints',
    source: { queue: 'events' },
    batchSize: 10,
    timeoutSeconds: 30,
    access: { table: ['Query', 'BatchWriteItem'], sendsTo: ['webhookDeliveries'] },
  },
  {
    id: 'webhooks.deliver',
    entry: 'webhooks/deliver-webhook',
    description: 'Signs and POSTs webhook deliveries, with retries and the disable rule',
    source: { queue: 'webhookDeliveries' },
    batchSize: 10,
    timeoutSeconds: 30,
    access: {
      table: ['GetItem', 'UpdateItem', 'BatchWriteItem'],
      sendsTo: ['webhookDeliveries'],
      webhookSecrets: 'decrypt',
      ownerMail: 'send',
    },
  },
] as const satisfies readonly ConsumerDef<QueueId>[];

export type ConsumerId = (typeof consumers)[number]['id'];

/** The consumer reading a queue (each queue has exactly one; a test keeps it so). */
export function consumerOf(queue: QueueId): ConsumerDef<QueueId> {
  const found = consumers.find((c) => 'queue' in c.source && c.source.queue === queue);
  if (!found) throw new Error(`no consumer reads the ${queue} queue`);
  return found;
}

/**
 * The queue whose dead-letter queue a consumer writes itself (its DEAD_LETTER_QUEUE_URL): a queue consumer that sends
 * parks there at once a message whose sends SQS refused for good (shared/events/consumer.ts). The others never do.
 */
export function deadLettersInto(consumer: ConsumerDef<QueueId>): QueueId | undefined {
  return 'queue' in consumer.source && consumer.access.sendsTo?.length ? consumer.source.queue : undefined;
}

/** The local stack's variable holding a queue's dead-letter queue URL (scripts/local/stack.ts). */
export const deadLetterQueueEnv = (queue: QueueId) => queues[queue].env.replace(/_URL$/, '_DLQ_URL');

/** SQS's advice for Lambda event sources: a visibility timeout of six times the function timeout. */
export const visibilityTimeoutSeconds = (queue: QueueId) => consumerOf(queue).timeoutSeconds * 6;
