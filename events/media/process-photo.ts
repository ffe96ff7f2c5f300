// Pet photo stored under pets/photos/ → bucket notification → pet-photos queue → this processor.
import { processPetPhoto } from '../../shared/domain/pets/photo-processing.ts';
import { objectCreatedConsumer } from '../../shared/events/s3-objects.ts';
import { localLabeller } from '../../shared/adapters/local-labeller.ts';
import { rekognitionLabeller } from '../../shared/adapters/rekognition-labeller.ts';

export const handler = objectCreatedConsumer('pets.process-photo', (deps, key) =>
  processPetPhoto(deps, key, deps.config.labelsProvider === 'rekognition' ? rekognitionLabeller : localLabeller),
);
