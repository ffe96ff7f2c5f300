// Photos as a vision model gets them: upright, at most 1024 px on the longer side, JPEG, no EXIF/GPS metadata.
import type { ModelImage } from '../ports/vision-model.ts';
import { MAX_PHOTO_PIXELS } from './dimensions.ts';

export const MODEL_IMAGE_MAX_SIDE = 1024;

export async function toModelImage(bytes: Uint8Array): Promise<ModelImage> {
  // Loaded on first use: the native library costs nothing to requests answered from the cache.
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
    .rotate() // applies the EXIF orientation before the metadata goes
    .resize({ width: MODEL_IMAGE_MAX_SIDE, height: MODEL_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer(); // sharp writes no metadata unless asked to
  return { bytes: jpeg, mediaType: 'image/jpeg' };
}
