// Portrait requests (pets.portrait-create) → portraits queue → this consumer → the image generator of the stage.
import * as z from 'zod/mini';
import { imageGeneratorFor } from '../../shared/adapters/image-generator/index.ts';
import { generatePortrait } from '../../shared/domain/pets/portraits.ts';
import { queueConsumer } from '../../shared/events/consumer.ts';

export const handler = queueConsumer({
  id: 'pets.generate-portrait',
  message: z.object({ pet_id: z.string(), portrait_id: z.string() }),
  concurrency: 'sequential',
  handle: (message, deps, record) =>
    generatePortrait(
      deps,
      message,
      imageGeneratorFor(deps.config),
      Number(record.attributes?.ApproximateReceiveCount ?? 1),
    ),
});
