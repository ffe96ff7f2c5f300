// Pet photo stored under pets/photos/ → bucket notification → pet-photos queue → this processor.
import { processPetPhoto } from '../../shared/domain/pets/photo-processing.ts';
import { objectCreatedConsumer } from '../../shared/events/s3-objects.ts';
import { labellerFor } from '../../shared/media/labels.ts';

export const handler = objectCreatedConsumer((deps, key) => processPetPhoto(deps, key, labellerFor(deps.config)));
