// Upload formats are decided by the file's leading bytes (magic numbers) alone: a client's filename
// and declared Content-Type are trivially forged, the bytes are what a viewer will actually decode.
import { AppError } from '../errors.ts';

export interface MediaFormatInfo {
  mimeType: string;
  /** With the leading dot, ready to append to a server-chosen object key. */
  extension: string;
}

export const PHOTO_FORMATS = {
  jpeg: { mimeType: 'image/jpeg', extension: '.jpg' },
  png: { mimeType: 'image/png', extension: '.png' },
  gif: { mimeType: 'image/gif', extension: '.gif' },
  webp: { mimeType: 'image/webp', extension: '.webp' },
} as const satisfies Record<string, MediaFormatInfo>;

export type PhotoFormat = keyof typeof PHOTO_FORMATS;

export const ACCEPTED_PHOTO_TYPES = Object.values(PHOTO_FORMATS).map((f) => f.mimeType);

/** 415 `unsupported_format` with the accepted media types (`accepted`): every photo route answers a format so. */
export const unsupportedPhoto = (message: string) =>
  new AppError(415, message, { code: 'unsupported_format', details: { accepted: ACCEPTED_PHOTO_TYPES } });

/** The photo format a declared media type names (a two-step upload's `content_type`); 415 for any other. */
export function declaredPhotoFormat(contentType: string): PhotoFormat {
  const format = (Object.keys(PHOTO_FORMATS) as PhotoFormat[]).find((f) => PHOTO_FORMATS[f].mimeType === contentType);
  if (!format) throw unsupportedPhoto(`content_type must be one of ${ACCEPTED_PHOTO_TYPES.join(', ')} for a photo`);
  return format;
}

export const VIDEO_FORMATS = {
  mp4: { mimeType: 'video/mp4', extension: '.mp4' },
  mov: { mimeType: 'video/quicktime', extension: '.mov' },
  webm: { mimeType: 'video/webm', extension: '.webm' },
  avi: { mimeType: 'video/x-msvideo', extension: '.avi' },
  mpeg: { mimeType: 'video/mpeg', extension: '.mpg' },
  '3gp': { mimeType: 'video/3gpp', extension: '.3gp' },
} as const satisfies Record<string, MediaFormatInfo>;

export type VideoFormat = keyof typeof VIDEO_FORMATS;

/** True when `bytes` holds `signature` at `offset`; a number in the signature is a raw byte, a string is ASCII. */
export function hasBytesAt(bytes: Uint8Array, offset: number, signature: string | readonly number[]): boolean {
  const expected = typeof signature === 'string' ? [...signature].map((char) => char.charCodeAt(0)) : signature;
  if (offset < 0 || offset + expected.length > bytes.length) return false;
  return expected.every((byte, index) => bytes[offset + index] === byte);
}

function asciiAt(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

const isRiff = (bytes: Uint8Array, formType: string) => hasBytesAt(bytes, 0, 'RIFF') && hasBytesAt(bytes, 8, formType);

export function detectPhotoFormat(bytes: Uint8Array): PhotoFormat | undefined {
  if (hasBytesAt(bytes, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (hasBytesAt(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (hasBytesAt(bytes, 0, 'GIF87a') || hasBytesAt(bytes, 0, 'GIF89a')) return 'gif';
  if (isRiff(bytes, 'WEBP')) return 'webp';
  return undefined;
}

export function detectVideoFormat(bytes: Uint8Array): VideoFormat | undefined {
  if (hasBytesAt(bytes, 4, 'ftyp')) return isoMediaFormat(bytes);
  if (hasBytesAt(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3])) return isWebmDocument(bytes) ? 'webm' : undefined;
  if (isRiff(bytes, 'AVI ')) return 'avi';
  // Program stream pack header, or an elementary stream's sequence header.
  if (hasBytesAt(bytes, 0, [0x00, 0x00, 0x01, 0xba]) || hasBytesAt(bytes, 0, [0x00, 0x00, 0x01, 0xb3])) return 'mpeg';
  return undefined;
}

const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'mmp4',
  'MSNV',
  'M4V ',
  'M4VH',
  'M4VP',
  'XAVC',
  'f4v ',
]);

function brandFormat(brand: string): VideoFormat | undefined {
  if (brand === 'qt  ') return 'mov';
  if (brand.startsWith('3gp')) return '3gp';
  if (MP4_BRANDS.has(brand)) return 'mp4';
  return undefined;
}

/**
 * ISO base media (MP4, MOV, 3GP): the ftyp box names a major brand, then minor version, then compatible
 * brands. The major brand decides; a compatible brand is the fallback for writers with private majors.
 */
function isoMediaFormat(bytes: Uint8Array): VideoFormat | undefined {
  if (bytes.length < 12) return undefined;
  const major = brandFormat(asciiAt(bytes, 8, 4));
  if (major) return major;
  const declaredBoxSize = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  const boxEnd = Math.min(declaredBoxSize, bytes.length);
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) {
    const compatible = brandFormat(asciiAt(bytes, offset, 4));
    if (compatible) return compatible;
  }
  return undefined;
}

/** EBML variable-length integer: the count of leading zero bits in the first byte gives the extra bytes. */
function readVint(
  bytes: Uint8Array,
  offset: number,
  keepMarker: boolean,
): { value: number; length: number } | undefined {
  const first = bytes[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let index = 1; index < length; index++) value = value * 256 + (bytes[offset + index] ?? 0);
  return { value, length };
}

const EBML_HEADER_ID = 0x1a45dfa3;
const EBML_DOCTYPE_ID = 0x4282;

/** Checks the EBML header's DocType: Matroska shares WebM's magic number but is not an accepted format. */
function isWebmDocument(bytes: Uint8Array): boolean {
  const headerId = readVint(bytes, 0, true);
  if (headerId?.value !== EBML_HEADER_ID) return false;
  const headerSize = readVint(bytes, headerId.length, false);
  if (!headerSize) return false;
  const bodyStart = headerId.length + headerSize.length;
  const bodyEnd = Math.min(bodyStart + headerSize.value, bytes.length);
  let offset = bodyStart;
  while (offset < bodyEnd) {
    const id = readVint(bytes, offset, true);
    const size = id && readVint(bytes, offset + id.length, false);
    if (!id || !size) return false;
    const dataStart = offset + id.length + size.length;
    if (dataStart + size.value > bodyEnd) return false;
    if (id.value === EBML_DOCTYPE_ID) return size.value === 4 && hasBytesAt(bytes, dataStart, 'webm');
    offset = dataStart + size.value;
  }
  return false;
}
