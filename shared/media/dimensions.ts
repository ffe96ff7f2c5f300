// Image size straight from the container header, read by image-size, so "is this a real image?" needs no decoder (and
// no native module in Lambda bundles). image-size reads what a header says; what it takes on trust is checked here
// first against hostile uploads: a header that is truncated, inconsistent or claims a zero size yields undefined
// rather than a guess or an exception. Only the header is checked: damage further into the pixel data is not
// detected here. Why image-size and these checks: docs/decisions.md ("Photo dimensions by image-size").

import { GIF } from 'image-size/types/gif';
import type { IImage } from 'image-size/types/interface';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';
import { crc32 } from 'node:zlib';
import { detectPhotoFormat, hasBytesAt, type PhotoFormat } from './format.ts';

/**
 * Pixel bounds read from the header before anything decodes a photo (decompression bombs: a 10,000 × 10,000 PNG of
 * one colour is a few KB but 400 MB once decoded). Every decoder (sharp) gets MAX_PHOTO_PIXELS as its input limit.
 */
export const MAX_PHOTO_SIDE = 12_000;
export const MAX_PHOTO_PIXELS = 50_000_000;

/**
 * The header must lie within this prefix, which image-size gets as a copy of its own. Where a JPEG's marker chain
 * breaks, image-size moves on one byte at a time (about 0.1 ms of CPU per KB), so a 50 MB file of garbage would take
 * seconds; real photos carry their frame header within their first 100 KB (metadata segments are at most 64 KB
 * each). A copy, because image-size reads through DataViews over the whole underlying buffer: given a view (a file
 * in a multipart body, a pooled Buffer), a frame header cut off at its end would be completed from the bytes after it.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

export interface ImageDimensions {
  width: number;
  height: number;
}

/**
 * image-size's reader of each format, from its per-format modules: its main entry brings all twenty formats, and
 * esbuild keeps them in every bundle that reaches this module (image-size's ESM folder does not declare itself free
 * of side effects), 44 functions among them that never check a photo.
 */
const READERS: Record<PhotoFormat, IImage> = { jpeg: JPG, png: PNG, gif: GIF, webp: WEBP };

export function readImageDimensions(bytes: Uint8Array, format: PhotoFormat): ImageDimensions | undefined {
  if (detectPhotoFormat(bytes) !== format || !HEADER_COMPLETE[format](bytes)) return undefined;
  try {
    const { width, height } = READERS[format].calculate(new Uint8Array(bytes.subarray(0, MAX_HEADER_BYTES)));
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    // image-size throws for a header it cannot read, a JPEG segment running past the bytes included.
    return undefined;
  }
}

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Whether the header image-size will read is whole and consistent; image-size reads PNG, GIF and WebP sizes at fixed
 * offsets without these checks. A JPEG's segments are walked and bounded by image-size itself.
 */
const HEADER_COMPLETE: Record<PhotoFormat, (bytes: Uint8Array) => boolean> = {
  jpeg: () => true,
  // The first chunk must be a 13-byte IHDR whose CRC matches: that tells a real header from a forged prefix.
  png: (bytes) =>
    bytes.length >= 33 &&
    viewOf(bytes).getUint32(8) === 13 &&
    hasBytesAt(bytes, 12, 'IHDR') &&
    crc32(bytes.subarray(12, 29)) === viewOf(bytes).getUint32(29),
  // The logical screen descriptor and the optional global colour table, followed by a block introducer.
  gif: (bytes) => {
    const packed = bytes[10] ?? 0;
    const colourTableBytes = packed & 0x80 ? 3 * (2 << (packed & 0x07)) : 0;
    const firstBlock = bytes[13 + colourTableBytes];
    return bytes.length >= 13 && (firstBlock === 0x21 || firstBlock === 0x2c);
  },
  // The first chunk (VP8, VP8L or VP8X) whole within the bytes, and long enough to hold its size fields.
  webp: (bytes) =>
    bytes.length >= 20 &&
    viewOf(bytes).getUint32(16, true) >= (hasBytesAt(bytes, 12, 'VP8L') ? 5 : 10) &&
    20 + viewOf(bytes).getUint32(16, true) <= bytes.length,
};
