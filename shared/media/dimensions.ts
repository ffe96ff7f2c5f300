// Image size straight from the container header, so "is this a real image?" needs no decoder (and no
// native module in Lambda bundles). Every read is bounds-checked against hostile uploads: a header that
// is truncated, inconsistent or claims a zero size yields undefined rather than a guess or an exception.
// Only the header is checked: damage further into the pixel data is not detected here.

import { detectPhotoFormat, hasBytesAt, type PhotoFormat } from './format.ts';

/**
 * Pixel bounds read from the header before anything decodes a photo (decompression bombs: a 10,000 × 10,000 PNG of
 * one colour is a few KB but 400 MB once decoded). Every decoder (sharp) gets MAX_PHOTO_PIXELS as its input limit.
 */
export const MAX_PHOTO_SIDE = 12_000;
export const MAX_PHOTO_PIXELS = 50_000_000;

export interface ImageDimensions {
  width: number;
  height: number;
}

export function readImageDimensions(bytes: Uint8Array, format: PhotoFormat): ImageDimensions | undefined {
  if (detectPhotoFormat(bytes) !== format) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimensions = READERS[format](bytes, view);
  return dimensions && dimensions.width > 0 && dimensions.height > 0 ? dimensions : undefined;
}

type DimensionReader = (bytes: Uint8Array, view: DataView) => ImageDimensions | undefined;

const READERS: Record<PhotoFormat, DimensionReader> = {
  jpeg: readJpegDimensions,
  png: readPngDimensions,
  gif: readGifDimensions,
  webp: readWebpDimensions,
};

// --- PNG: the first chunk must be a 13-byte IHDR, whose CRC tells a real header from a forged prefix.

const PNG_IHDR_OFFSET = 8;
const PNG_IHDR_LENGTH = 13;

function readPngDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  const typeStart = PNG_IHDR_OFFSET + 4;
  const crcStart = typeStart + 4 + PNG_IHDR_LENGTH;
  if (bytes.length < crcStart + 4) return undefined;
  if (view.getUint32(PNG_IHDR_OFFSET) !== PNG_IHDR_LENGTH || !hasBytesAt(bytes, typeStart, 'IHDR')) return undefined;
  if (crc32(bytes.subarray(typeStart, crcStart)) !== view.getUint32(crcStart)) return undefined;
  return { width: view.getUint32(typeStart + 4), height: view.getUint32(typeStart + 8) };
}

const CRC32_TABLE = Uint32Array.from({ length: 256 }, (_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// --- GIF: the logical screen descriptor follows the six-byte signature; the header is complete only if
// the optional global colour table is followed by a block introducer.

const GIF_SCREEN_DESCRIPTOR_END = 13;
const GIF_EXTENSION_INTRODUCER = 0x21;
const GIF_IMAGE_SEPARATOR = 0x2c;

function readGifDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  if (bytes.length < GIF_SCREEN_DESCRIPTOR_END) return undefined;
  const packed = view.getUint8(10);
  const hasGlobalColourTable = (packed & 0x80) !== 0;
  const colourTableBytes = hasGlobalColourTable ? 3 * (2 << (packed & 0x07)) : 0;
  const firstBlock = bytes[GIF_SCREEN_DESCRIPTOR_END + colourTableBytes];
  if (firstBlock !== GIF_EXTENSION_INTRODUCER && firstBlock !== GIF_IMAGE_SEPARATOR) return undefined;
  return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

// --- WebP: RIFF header, then one of three first chunks, each storing the size its own way.

const WEBP_CHUNK_DATA = 20;

function readWebpDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  if (bytes.length < WEBP_CHUNK_DATA) return undefined;
  const chunkSize = view.getUint32(16, true);
  if (WEBP_CHUNK_DATA + chunkSize > bytes.length) return undefined;
  if (hasBytesAt(bytes, 12, 'VP8 ')) return readVp8(bytes, view, chunkSize);
  if (hasBytesAt(bytes, 12, 'VP8L')) return readVp8l(bytes, view, chunkSize);
  if (hasBytesAt(bytes, 12, 'VP8X')) return readVp8x(view, chunkSize);
  return undefined;
}

/** Lossy: a key-frame tag, start code 9D 01 2A, then 14-bit width and height (top two bits are scaling). */
function readVp8(bytes: Uint8Array, view: DataView, chunkSize: number): ImageDimensions | undefined {
  const data = WEBP_CHUNK_DATA;
  if (chunkSize < 10) return undefined;
  const isKeyFrame = ((bytes[data] ?? 1) & 1) === 0;
  if (!isKeyFrame || !hasBytesAt(bytes, data + 3, [0x9d, 0x01, 0x2a])) return undefined;
  return { width: view.getUint16(data + 6, true) & 0x3fff, height: view.getUint16(data + 8, true) & 0x3fff };
}

/** Lossless: signature 0x2F, then width-1 and height-1 packed as 14-bit fields, then a 3-bit version that must be 0. */
function readVp8l(bytes: Uint8Array, view: DataView, chunkSize: number): ImageDimensions | undefined {
  const data = WEBP_CHUNK_DATA;
  if (chunkSize < 5 || bytes[data] !== 0x2f) return undefined;
  const packed = view.getUint32(data + 1, true);
  if (packed >>> 29 !== 0) return undefined;
  return { width: (packed & 0x3fff) + 1, height: ((packed >>> 14) & 0x3fff) + 1 };
}

/** Extended (animation, alpha, metadata): the canvas size as 24-bit width-1 and height-1. */
function readVp8x(view: DataView, chunkSize: number): ImageDimensions | undefined {
  const data = WEBP_CHUNK_DATA;
  if (chunkSize < 10) return undefined;
  return { width: readUint24LE(view, data + 4) + 1, height: readUint24LE(view, data + 7) + 1 };
}

function readUint24LE(view: DataView, offset: number): number {
  return view.getUint16(offset, true) + (view.getUint8(offset + 2) << 16);
}

// --- JPEG: walk the marker segments up to the first start-of-frame, which carries height then width.

const JPEG_STANDALONE_MARKERS = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7]);
const JPEG_START_OF_SCAN = 0xda;
const JPEG_END_OF_IMAGE = 0xd9;

/** SOF0–SOF15 cover baseline, extended, progressive and lossless; C4, C8 and CC share the range but are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function readJpegDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  let offset = 2;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    // Any number of 0xFF fill bytes may precede a marker code.
    while (bytes[offset + 1] === 0xff) offset++;
    const marker = bytes[offset + 1];
    if (marker === undefined) return undefined;
    offset += 2;
    if (JPEG_STANDALONE_MARKERS.has(marker)) continue;
    // A frame header always precedes the first scan, so reaching scan data or the end means there is none.
    if (marker === JPEG_START_OF_SCAN || marker === JPEG_END_OF_IMAGE || offset + 2 > bytes.length) return undefined;
    const segmentLength = view.getUint16(offset);
    // The length counts its own two bytes; anything shorter would stall the walk.
    if (segmentLength < 2 || offset + segmentLength > bytes.length) return undefined;
    if (isStartOfFrame(marker)) return readJpegFrameHeader(view, offset, segmentLength);
    offset += segmentLength;
  }
  return undefined;
}

/** Frame header: length, sample precision, height, width, component count, then three bytes per component. */
function readJpegFrameHeader(view: DataView, offset: number, segmentLength: number): ImageDimensions | undefined {
  if (segmentLength < 8) return undefined;
  const components = view.getUint8(offset + 7);
  if (components === 0 || segmentLength < 8 + 3 * components) return undefined;
  return { width: view.getUint16(offset + 5), height: view.getUint16(offset + 3) };
}
