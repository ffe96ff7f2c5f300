// A committed respiratory-rate request (table stream: a new `processing` measurement) → this consumer: ffmpeg decodes
// the video, the core measures the breathing rate and finishes the record, which becomes the webhook event.
import type { DynamoDBRecord } from 'aws-lambda';
import { MEASUREMENT_ITEM_TYPE } from '../../shared/domain/respiration/measurement.ts';
import { measureRespiratoryRate } from '../../shared/domain/respiration/service.ts';
import { streamConsumer } from '../../shared/events/stream-consumer.ts';
import { videoTools } from '../../shared/media/video-tools.ts';

/** What the stream filter lets through, checked again here: a measurement just requested. */
export function requestedMeasurement(record: DynamoDBRecord): { pet_id: string; id: string } | undefined {
  const item = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || item?.type?.S !== MEASUREMENT_ITEM_TYPE || item.status?.S !== 'processing')
    return undefined;
  return item.pet_id?.S && item.id?.S ? { pet_id: item.pet_id.S, id: item.id.S } : undefined;
}

export const handler = streamConsumer({
  id: 'analysis.measure-respiratory-rate',
  select: requestedMeasurement,
  handle: async (job, deps) => measureRespiratoryRate(deps, job, await videoTools(deps.config)),
});
