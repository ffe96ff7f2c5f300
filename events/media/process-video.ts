// Pet video stored under pets/videos/ → bucket notification → pet-videos queue → this processor (ffprobe, ffmpeg).
import { processPetVideo } from '../../shared/domain/pets/video-processing.ts';
import { objectCreatedConsumer } from '../../shared/events/s3-objects.ts';
import { videoTools } from '../../shared/media/video-tools.ts';

export const handler = objectCreatedConsumer('pets.process-video', async (deps, key) =>
  processPetVideo(deps, key, await videoTools(deps.config)),
);
