// What the service serves of a photo, made with sharp (libvips): a pet photo's display copy and thumbnail, an
// uploaded photo's clean copy, all turned upright and re-encoded, so no EXIF, XMP or IPTC block (GPS position, camera
// serial, time) survives (sharp keeps no metadata unless asked). Decoding is bounded in pixels; a file that does not
// decode cleanly is refused with the reason.
import sharp, { type Sharp } from 'sharp';
import { MAX_PHOTO_PIXELS } from './dimensions.ts';
import type { PhotoFormat } from './format.ts';

export const DISPLAY_MAX_EDGE = 2048;
export const THUMBNAIL_EDGE = 320;

export interface PhotoDerivatives {
  /** Upright dimensions of the original. */
  width: number;
  height: number;
  display: Buffer;
  thumbnail: Buffer;
}

export class UndecodablePhoto extends Error {}

/** The photo, upright; `animated` keeps every frame of a GIF or WebP (else the first only). */
const open = (bytes: Uint8Array, animated = false) =>
  // failOn 'warning': a truncated or damaged file is an error, not a half-grey picture.
  sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning', animated }).rotate();

/** sharp's reason (its first line) for a file it could not decode. */
const undecodable = (error: unknown) =>
  new UndecodablePhoto(
    `the photo could not be decoded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
  );

/** How each format's clean copy is written: full size, in the format it was uploaded as. */
const ENCODERS: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 90, mozjpeg: true }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 90 }),
  gif: (image) => image.gif(),
};

export interface CleanPhoto {
  bytes: Buffer;
  /** Upright dimensions (of one frame, for an animated image). */
  width: number;
  height: number;
}

/**
 * An uploaded photo as the service serves it: `format`, full size, upright (the EXIF orientation applied, since the
 * tag goes with the rest), every frame of an animated GIF or WebP kept, and no metadata.
 */
export async function cleanPhoto(bytes: Uint8Array, format: PhotoFormat): Promise<CleanPhoto> {
  try {
    const { data, info } = await ENCODERS[format](open(bytes, true)).toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.pageHeight ?? info.height };
  } catch (error) {
    throw undecodable(error);
  }
}

export async function derivePhoto(bytes: Uint8Array): Promise<PhotoDerivatives> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new UndecodablePhoto('the image has no dimensions');
    const sideways = (meta.orientation ?? 1) >= 5;
    const [display, thumbnail] = await Promise.all([
      open(bytes)
        .resize({ width: DISPLAY_MAX_EDGE, height: DISPLAY_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer(),
      open(bytes)
        .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80, mozjpeg: true })
        .toBuffer(),
    ]);
    return {
      width: sideways ? meta.height : meta.width,
      height: sideways ? meta.width : meta.height,
      display,
      thumbnail,
    };
  } catch (error) {
    throw error instanceof UndecodablePhoto ? error : undecodable(error);
  }
}
