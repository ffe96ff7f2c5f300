// A pet video's processing: the bytes that arrived must be the size declared and a video container by their bytes;
// ffprobe must find a video stream with a duration; then the poster frame and a metadata-free copy are stored and
// the video is ready. Videos never reach photo analysis (spec rule 3): they are another kind.
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { detectVideoFormat, VIDEO_FORMATS } from '../../media/format.ts';
import { servedObject } from '../../media/served-object.ts';
import {
  copyWithoutMetadata,
  MUXERS,
  posterFrame,
  probeVideo,
  UnreadableVideo,
  type VideoTools,
} from '../../media/video-tools.ts';
import { getMediaObject, petObjectKeys, putMediaFile } from '../media/objects.ts';
import type { PetMediaItem } from './media.ts';
import { type Outcome, processArrivedObject } from './processing.ts';
import { MAX_PET_VIDEO_BYTES } from './uploads.ts';

type ProcessingDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>;

export async function processPetVideo(deps: ProcessingDeps, key: string, tools: VideoTools): Promise<void> {
  await processArrivedObject(deps, key, 'video', (media) => derive(deps, media, tools));
}

async function derive(deps: ProcessingDeps, media: PetMediaItem, tools: VideoTools): Promise<Outcome> {
  const object = await getMediaObject(deps, media.file);
  const size = object.ContentLength ?? 0;
  if (size > MAX_PET_VIDEO_BYTES || (media.bytes !== null && size !== media.bytes)) {
    await (object.Body as Readable | undefined)?.destroy();
    return {
      status: 'rejected',
      reason:
        size > MAX_PET_VIDEO_BYTES
          ? `larger than the ${MAX_PET_VIDEO_BYTES / 1024 / 1024} MB video limit`
          : `${size} bytes arrived, ${media.bytes} were declared`,
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'pet-video-'));
  try {
    const original = join(dir, 'original');
    await pipeline(object.Body as Readable, createWriteStream(original));
    const head = Buffer.alloc(64);
    const handle = await open(original);
    await handle.read(head, 0, 64, 0).finally(() => handle.close());
    const format = detectVideoFormat(head);
    if (!format) return { status: 'rejected', reason: 'not an MP4, MOV, WebM, AVI, MPEG or 3GP video' };
    const facts = await probeVideo(tools, original);
    const poster = join(dir, 'poster.jpg');
    const clean = join(dir, `clean${VIDEO_FORMATS[format].extension}`);
    await posterFrame(tools, original, facts, poster);
    await copyWithoutMetadata(tools, original, MUXERS[format], clean);
    const posterKey = petObjectKeys.derived(media.account_id, media.pet_id, media.id, 'poster.jpg');
    const cleanKey = petObjectKeys.derived(
      media.account_id,
      media.pet_id,
      media.id,
      `video${VIDEO_FORMATS[format].extension}`,
    );
    await putMediaFile(deps, posterKey, poster, servedObject(`${media.id}-poster.jpg`, 'image/jpeg'));
    await putMediaFile(
      deps,
      cleanKey,
      clean,
      servedObject(`${media.id}${VIDEO_FORMATS[format].extension}`, media.content_type),
    );
    return {
      status: 'ready',
      fields: {
        width: facts.width,
        height: facts.height,
        duration_s: facts.durationS,
        codec: facts.codec,
        display_key: cleanKey,
        thumbnail_key: posterKey,
      },
      written: [posterKey, cleanKey],
    };
  } catch (error) {
    if (error instanceof UnreadableVideo) return { status: 'rejected', reason: error.message };
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
