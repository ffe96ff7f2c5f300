// Pet photo stored under pets/photos/ → bucket notification → pet-photos queue → this processor.
import { labellerFor } from '../../shared/adapters/labeller/index.ts';
import { processPetPhoto } from '../../shared/domain/pets/photo-processing.ts';
import { objectCreatedConsumer } from '../../shared/events/s3-objects.ts';

export const handler = objectCreatedConsumer('pets.process-photo', (deps, key) =>
  processPetPhoto(deps, key, labellerFor(deps.config)),
);
