import { readFileSync } from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectPhotoFormat, detectVideoFormat, PHOTO_FORMATS, VIDEO_FORMATS } from '../../../shared/media/format.ts';

const PHOTOS = '/work/shared/data/photos';

function solidImage(width = 8, height = 6): Sharp {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const bytesOf = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? ascii(part) : part)));

/** An ftyp box: size, "ftyp", major brand, minor version, compatible brands. */
function ftypBox(major: string, compatible: string[] = []): Uint8Array {
  const size = 16 + 4 * compatible.length;
  return bytesOf([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], ...compatible, [0, 0, 0, 8], 'free');
}

/** EBML header holding only a DocType element (ID 42 82), as WebM and Matroska files begin. */
function ebmlHeader(docType: string): Uint8Array {
  return bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x80 | (docType.length + 3), 0x42, 0x82, 0x80 | docType.length], docType);
}

describe('detectPhotoFormat', () => {
  it('recognises JPEG, PNG, GIF and WebP produced by an image encoder', async () => {
    expect(detectPhotoFormat(await solidImage().jpeg().toBuffer())).toBe('jpeg');
    expect(detectPhotoFormat(await solidImage().png().toBuffer())).toBe('png');
    expect(detectPhotoFormat(await solidImage().gif().toBuffer())).toBe('gif');
    expect(detectPhotoFormat(await solidImage().webp().toBuffer())).toBe('webp');
  });

  it('recognises both GIF87a and GIF89a signatures', async () => {
    const gif89a = await solidImage().gif().toBuffer();
    const gif87a = Buffer.concat([Buffer.from('GIF87a'), gif89a.subarray(6)]);
    expect(detectPhotoFormat(gif89a)).toBe('gif');
    expect(detectPhotoFormat(gif87a)).toBe('gif');
  });

  it('recognises the real sample photos', () => {
    expect(detectPhotoFormat(readFileSync(`${PHOTOS}/skimage/chelsea.png`))).toBe('png');
    expect(detectPhotoFormat(readFileSync(`${PHOTOS}/darknet/dog.jpg`))).toBe('jpeg');
    expect(detectPhotoFormat(readFileSync(`${PHOTOS}/cameratrapai/domestic_dog.jpg`))).toBe('jpeg');
  });

  it('rejects a text file whatever its name says', () => {
    const renamedTextFile = Buffer.from('this is dog.jpg, honestly\n');
    expect(detectPhotoFormat(renamedTextFile)).toBeUndefined();
  });

  it('rejects empty input and signatures cut short', () => {
    expect(detectPhotoFormat(new Uint8Array())).toBeUndefined();
    expect(detectPhotoFormat(bytesOf([0xff, 0xd8]))).toBeUndefined();
    expect(detectPhotoFormat(bytesOf([0x89], 'PNG'))).toBeUndefined();
    expect(detectPhotoFormat(bytesOf('GIF8'))).toBeUndefined();
    expect(detectPhotoFormat(bytesOf('RIFF', [0, 0, 0, 0], 'WEB'))).toBeUndefined();
  });

  it('rejects other RIFF containers and formats it does not accept', () => {
    expect(detectPhotoFormat(bytesOf('RIFF', [0, 0, 0, 0], 'AVI LIST'))).toBeUndefined();
    expect(detectPhotoFormat(bytesOf('BM', [0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(detectPhotoFormat(bytesOf('%PDF-1.7'))).toBeUndefined();
  });

  it('looks only at bytes, so a Buffer view into a larger pool works', async () => {
    const png = await solidImage().png().toBuffer();
    const pooled = Buffer.concat([Buffer.from('garbage'), png]).subarray(7);
    expect(detectPhotoFormat(pooled)).toBe('png');
  });

  it('lists a mime type and a dotted extension for every photo format', () => {
    expect(PHOTO_FORMATS).toEqual({
      jpeg: { mimeType: 'image/jpeg', extension: '.jpg' },
      png: { mimeType: 'image/png', extension: '.png' },
      gif: { mimeType: 'image/gif', extension: '.gif' },
      webp: { mimeType: 'image/webp', extension: '.webp' },
    });
  });
});

describe('detectVideoFormat', () => {
  it('tells MP4, MOV and 3GP apart by their ftyp major brand', () => {
    expect(detectVideoFormat(ftypBox('isom', ['isom', 'iso2', 'avc1', 'mp41']))).toBe('mp4');
    expect(detectVideoFormat(ftypBox('mp42'))).toBe('mp4');
    expect(detectVideoFormat(ftypBox('qt  ', ['qt  ']))).toBe('mov');
    expect(detectVideoFormat(ftypBox('3gp4', ['3gp4']))).toBe('3gp');
    expect(detectVideoFormat(ftypBox('3gp6'))).toBe('3gp');
  });

  it('falls back to a compatible brand when the major brand is private', () => {
    expect(detectVideoFormat(ftypBox('abcd', ['zzzz', 'mp42']))).toBe('mp4');
  });

  it('ignores brands beyond the declared ftyp box size', () => {
    const box = ftypBox('abcd', ['mp42']);
    box[3] = 16;
    expect(detectVideoFormat(box)).toBeUndefined();
  });

  it('rejects ISO media that is not video, such as HEIC photos and M4A audio', () => {
    expect(detectVideoFormat(ftypBox('heic', ['mif1', 'heic']))).toBeUndefined();
    expect(detectVideoFormat(ftypBox('M4A ', ['M4A ']))).toBeUndefined();
  });

  it('accepts WebM but not other Matroska documents', () => {
    expect(detectVideoFormat(ebmlHeader('webm'))).toBe('webm');
    expect(detectVideoFormat(ebmlHeader('matroska'))).toBeUndefined();
  });

  it('finds the WebM DocType after other EBML header elements', () => {
    // EBMLVersion (42 86) = 1, then DocType (42 82) = "webm".
    const header = bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x8b, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm');
    expect(detectVideoFormat(header)).toBe('webm');
  });

  it('rejects an EBML header whose elements overrun it', () => {
    const overrun = bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x88], 'webm');
    expect(detectVideoFormat(overrun)).toBeUndefined();
    expect(detectVideoFormat(bytesOf([0x1a, 0x45, 0xdf, 0xa3]))).toBeUndefined();
    expect(detectVideoFormat(bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x00]))).toBeUndefined();
  });

  it('recognises AVI and both MPEG start codes', () => {
    expect(detectVideoFormat(bytesOf('RIFF', [0x24, 0, 0, 0], 'AVI LIST'))).toBe('avi');
    expect(detectVideoFormat(bytesOf([0x00, 0x00, 0x01, 0xba, 0x44]))).toBe('mpeg');
    expect(detectVideoFormat(bytesOf([0x00, 0x00, 0x01, 0xb3, 0x14]))).toBe('mpeg');
  });

  it('rejects photos, text and truncated signatures', async () => {
    expect(detectVideoFormat(await solidImage().webp().toBuffer())).toBeUndefined();
    expect(detectVideoFormat(await solidImage().jpeg().toBuffer())).toBeUndefined();
    expect(detectVideoFormat(Buffer.from('Get free video.mp4 now'))).toBeUndefined();
    expect(detectVideoFormat(bytesOf([0, 0, 0, 0x18], 'ftypmp'))).toBeUndefined();
    expect(detectVideoFormat(bytesOf([0x00, 0x00, 0x01]))).toBeUndefined();
    expect(detectVideoFormat(new Uint8Array())).toBeUndefined();
  });

  it('lists a mime type and a dotted extension for every video format', () => {
    expect(Object.keys(VIDEO_FORMATS).sort()).toEqual(['3gp', 'avi', 'mov', 'mp4', 'mpeg', 'webm']);
    for (const { mimeType, extension } of Object.values(VIDEO_FORMATS)) {
      expect(mimeType).toMatch(/^video\//);
      expect(extension).toMatch(/^\.[a-z0-9]+$/);
    }
  });
});
