// The one check of a photo's header, before anything decodes it: the format by its bytes (415), a readable header
// (400 `invalid_image`) and bounded dimensions (400 `image_dimensions_too_large`). Every upload route that holds the
// bytes and both photo processors call it, so one file gets one answer wherever it arrives. How the header is read
// (dimensions.ts) can change behind this function without touching its callers.
import { badRequest } from '../errors.ts';
import { MAX_PHOTO_PIXELS, MAX_PHOTO_SIDE, readImageDimensions } from './dimensions.ts';
import { detectPhotoFormat, hasBytesAt, type PhotoFormat, unsupportedPhoto } from './format.ts';

export interface PhotoHeader {
  format: PhotoFormat;
  width: number;
  height: number;
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif']);
const isHeif = (bytes: Uint8Array) =>
  hasBytesAt(bytes, 4, 'ftyp') && HEIF_BRANDS.has(String.fromCharCode(...bytes.subarray(8, 12)));

export function inspectPhotoHeader(bytes: Uint8Array): PhotoHeader {
  if (bytes.length === 0) throw badRequest('The file is empty', { code: 'invalid_image' });
  const format = detectPhotoFormat(bytes);
  if (!format)
    throw unsupportedPhoto(
      isHeif(bytes)
        ? 'HEIC/HEIF photos are not accepted: send JPEG, PNG, WebP or GIF (phones can export or share as JPEG)'
        : 'The file is not a JPEG, PNG, GIF or WebP image (judged by its content, not its name or type)',
    );
  const size = readImageDimensions(bytes, format);
  if (!size)
    throw badRequest('The file is not a valid image: its header is damaged or cut short', { code: 'invalid_image' });
  if (size.width > MAX_PHOTO_SIDE || size.height > MAX_PHOTO_SIDE || size.width * size.height > MAX_PHOTO_PIXELS)
    throw badRequest(
      `The image is ${size.width} × ${size.height} pixels; photos may be at most ${MAX_PHOTO_SIDE} pixels on a side and ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`,
      { code: 'image_dimensions_too_large' },
    );
  return { format, ...size };
}
