// Photo stored under uploads/ → bucket notification → uploads queue → domain/images/processing.ts. The labeller is
// composed here: Rekognition deployed, the local adapter under npm start, so only the processors bundle its SDK.
import { labellerFor } from '../../shared/adapters/labeller/index.ts';
import { processUploadedObject } from '../../shared/domain/images/processing.ts';
import { objectCreatedConsumer } from '../../shared/events/s3-objects.ts';

export const handler = objectCreatedConsumer('images.process-upload', (deps, key, bucket) =>
  processUploadedObject(deps, labellerFor(deps.config), bucket, key),
);
