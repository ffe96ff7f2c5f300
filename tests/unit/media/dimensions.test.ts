import { readFileSync } from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES, readImageDimensions } from '../../../shared/media/dimensions.ts';
import { detectPhotoFormat, type PhotoFormat } from '../../../shared/media/format.ts';

const PHOTOS = '/work/shared/data/photos';

function canvas(width: number, height: number, alpha = false): Sharp {
  const channels = alpha ? 4 : 3;
  return sharp({ create: { width, height, channels, background: { r: 30, g: 140, b: 90, alpha: 0.5 } } });
}

const encoders: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg(),
  png: (image) => image.png(),
  gif: (image) => image.gif(),
  webp: (image) => image.webp(),
};

const FORMATS = Object.keys(encoders) as PhotoFormat[];
const SIZES = [
  { width: 1, height: 1 },
  { width: 17, height: 9 },
  { width: 320, height: 2000 },
];

const webpChunk = (bytes: Uint8Array) => String.fromCharCode(...bytes.subarray(12, 16));

/** Deterministic pseudo-random bytes (mulberry32), so a failing fuzz case can be replayed. */
function randomGenerator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

describe('readImageDimensions', () => {
  for (const format of FORMATS) {
    for (const size of SIZES) {
      it(`reads ${size.width}×${size.height} from a ${format} made at that size`, async () => {
        const bytes = await encoders[format](canvas(size.width, size.height)).toBuffer();
        expect(readImageDimensions(bytes, format)).toEqual(size);
      });
    }
  }

  it('reads the real sample photos', () => {
    expect(readImageDimensions(readFileSync(`${PHOTOS}/skimage/chelsea.png`), 'png')).toEqual({
      width: 451,
      height: 300,
    });
    expect(readImageDimensions(readFileSync(`${PHOTOS}/darknet/dog.jpg`), 'jpeg')).toEqual({ width: 768, height: 576 });
    expect(readImageDimensions(readFileSync(`${PHOTOS}/cameratrapai/domestic_dog.jpg`), 'jpeg')).toEqual({
      width: 2048,
      height: 1536,
    });
  });

  it('reads a progressive JPEG from its SOF2 frame header', async () => {
    const bytes = await canvas(123, 45).jpeg({ progressive: true }).toBuffer();
    expect(bytes.includes(Buffer.from([0xff, 0xc2]))).toBe(true);
    expect(readImageDimensions(bytes, 'jpeg')).toEqual({ width: 123, height: 45 });
  });

  it('walks past metadata segments before the JPEG frame header, and refuses fill bytes rather than misread them', async () => {
    const withExif = await canvas(64, 48).jpeg().withMetadata().keepIccProfile().toBuffer();
    expect(withExif.subarray(2, 4)).toEqual(Buffer.from([0xff, 0xe1])); // APP1 (Exif) comes first
    expect(readImageDimensions(withExif, 'jpeg')).toEqual({ width: 64, height: 48 });
    // Fill bytes before a marker are legal but written by no common encoder; image-size does not skip them.
    const padded = Buffer.concat([withExif.subarray(0, 2), Buffer.from([0xff, 0xff, 0xff]), withExif.subarray(2)]);
    expect(readImageDimensions(padded, 'jpeg')).toBeUndefined();
  });

  it(`reads a JPEG frame header within the first ${MAX_HEADER_BYTES} bytes only, so garbage costs no more`, async () => {
    const jpeg = await canvas(40, 30).jpeg().toBuffer();
    const segment = Buffer.concat([Buffer.from([0xff, 0xe3, 0xff, 0xff]), Buffer.alloc(0xffff - 2)]);
    const withSegments = (count: number) =>
      Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, () => segment), jpeg.subarray(2)]);
    const fits = Math.floor((MAX_HEADER_BYTES - jpeg.length) / segment.length);

    expect(readImageDimensions(withSegments(fits), 'jpeg')).toEqual({ width: 40, height: 30 });
    expect(readImageDimensions(withSegments(fits + 1), 'jpeg')).toBeUndefined();
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(10 * 1024 * 1024)]);
    expect(readImageDimensions(garbage, 'jpeg')).toBeUndefined();
  });

  it('reads lossy, lossless and extended WebP headers', async () => {
    const lossy = await canvas(50, 30).webp().toBuffer();
    const lossless = await canvas(51, 31).webp({ lossless: true }).toBuffer();
    const extended = await canvas(52, 32, true).webp().toBuffer();
    expect([webpChunk(lossy), webpChunk(lossless), webpChunk(extended)]).toEqual(['VP8 ', 'VP8L', 'VP8X']);
    expect(readImageDimensions(lossy, 'webp')).toEqual({ width: 50, height: 30 });
    expect(readImageDimensions(lossless, 'webp')).toEqual({ width: 51, height: 31 });
    expect(readImageDimensions(extended, 'webp')).toEqual({ width: 52, height: 32 });
  });

  it('returns undefined when the bytes are not of the stated format', async () => {
    const png = await canvas(10, 10).png().toBuffer();
    expect(readImageDimensions(png, 'jpeg')).toBeUndefined();
    expect(readImageDimensions(Buffer.from('not really a picture.jpg'), 'jpeg')).toBeUndefined();
  });

  for (const format of FORMATS) {
    it(`returns undefined for a ${format} cut off inside its header`, async () => {
      const bytes = await encoders[format](canvas(40, 30)).toBuffer();
      for (const length of [0, 3, 8, 12, 16, 19]) {
        expect(readImageDimensions(bytes.subarray(0, length), format)).toBeUndefined();
      }
    });
  }

  it('returns undefined for a JPEG whose markers stop before any frame header', async () => {
    const jpeg = await canvas(40, 30).jpeg().toBuffer();
    const firstFrame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(readImageDimensions(jpeg.subarray(0, firstFrame + 6), 'jpeg')).toBeUndefined();
    expect(readImageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg')).toBeUndefined();
    expect(readImageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08]), 'jpeg')).toBeUndefined();
  });

  it('stops on JPEG segment lengths that would stall or overrun the walk', () => {
    for (const length of [
      [0x00, 0x00],
      [0x00, 0x01],
      [0xff, 0xff],
    ]) {
      expect(readImageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...length, 0, 0, 0, 0]), 'jpeg')).toBeUndefined();
    }
    const endlessFill = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(100_000, 0xff)]);
    expect(readImageDimensions(endlessFill, 'jpeg')).toBeUndefined();
  });

  it('returns undefined for a PNG whose IHDR fails its checksum', async () => {
    const png = Buffer.from(await canvas(40, 30).png().toBuffer());
    png[19] = 0x7f; // width byte changed without updating the CRC
    expect(readImageDimensions(png, 'png')).toBeUndefined();
  });

  it('returns undefined for zero-sized GIF and JPEG headers', async () => {
    const gif = Buffer.from(await canvas(40, 30).gif().toBuffer());
    gif.writeUInt16LE(0, 6);
    expect(readImageDimensions(gif, 'gif')).toBeUndefined();
    const jpeg = Buffer.from(await canvas(40, 30).jpeg().toBuffer());
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(0, frame + 5);
    expect(readImageDimensions(jpeg, 'jpeg')).toBeUndefined();
  });

  it('returns undefined for a WebP whose first chunk claims more bytes than the file has', async () => {
    const webp = Buffer.from(await canvas(40, 30).webp().toBuffer());
    webp.writeUInt32LE(webp.length, 16);
    expect(readImageDimensions(webp, 'webp')).toBeUndefined();
  });

  it('never throws on random bytes behind a valid signature, and only reports positive sizes', () => {
    const signatures: Record<PhotoFormat, number[]> = {
      jpeg: [0xff, 0xd8, 0xff],
      png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      gif: [...Buffer.from('GIF89a')],
      webp: [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')],
    };
    const random = randomGenerator(42);
    for (let round = 0; round < 2000; round++) {
      const format = FORMATS[round % FORMATS.length] as PhotoFormat;
      const tail = Array.from({ length: Math.floor(random() * 80) }, () => Math.floor(random() * 256));
      const result = readImageDimensions(Uint8Array.from([...signatures[format], ...tail]), format);
      if (result) expect(result.width > 0 && result.height > 0).toBe(true);
    }
  });

  it('never throws on every prefix and on bit-flipped copies of real images, and never misreads a prefix', async () => {
    const random = randomGenerator(7);
    for (const format of FORMATS) {
      const bytes = await encoders[format](canvas(33, 21)).toBuffer();
      for (let length = 0; length <= Math.min(bytes.length, 400); length++) {
        const result = readImageDimensions(bytes.subarray(0, length), format);
        if (result) expect(result).toEqual({ width: 33, height: 21 });
      }
      for (let round = 0; round < 500; round++) {
        const corrupt = Buffer.from(bytes);
        const position = Math.floor(random() * Math.min(corrupt.length, 64));
        corrupt[position] = (corrupt[position] ?? 0) ^ (1 << Math.floor(random() * 8));
        const result = readImageDimensions(corrupt, detectPhotoFormat(corrupt) ?? format);
        if (result) expect(Number.isInteger(result.width) && result.width > 0 && result.height > 0).toBe(true);
      }
    }
  });
});
