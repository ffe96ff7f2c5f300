import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { inspectPhotoHeader } from '../../../shared/media/photo-header.ts';
import { pngClaiming } from '../../support/forged-png.ts';

/** The status and code the check refuses `bytes` with. */
function refusal(bytes: Uint8Array): [number, string | undefined] {
  try {
    inspectPhotoHeader(bytes);
  } catch (error) {
    if (error instanceof AppError) return [error.status, error.code];
    throw error;
  }
  throw new Error('not refused');
}

describe('inspectPhotoHeader: the one header check of every photo upload', () => {
  it('answers the format and size of a photo without decoding it', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    expect(inspectPhotoHeader(jpeg)).toEqual({ format: 'jpeg', width: 40, height: 30 });
  });

  it('refuses an empty file and a damaged header with 400 invalid_image', async () => {
    const png = await pngClaiming(64, 48);
    expect(refusal(new Uint8Array())).toEqual([400, 'invalid_image']);
    expect(refusal(png.subarray(0, 20))).toEqual([400, 'invalid_image']);
  });

  it('refuses what is not a photo by its bytes with 415, naming HEIC when it is one', () => {
    const heic = Buffer.from([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]);
    expect(refusal(Buffer.from('plain text named cat.jpg'))).toEqual([415, 'unsupported_format']);
    expect(() => inspectPhotoHeader(heic)).toThrow(/HEIC\/HEIF photos are not accepted/);
  });

  it('refuses a header claiming more than 12,000 px a side or 50 megapixels with 400 image_dimensions_too_large', async () => {
    expect(refusal(await pngClaiming(30_000, 30_000))).toEqual([400, 'image_dimensions_too_large']);
    expect(refusal(await pngClaiming(12_001, 10))).toEqual([400, 'image_dimensions_too_large']);
    expect(refusal(await pngClaiming(8_000, 7_000))).toEqual([400, 'image_dimensions_too_large']);
    expect(inspectPhotoHeader(await pngClaiming(12_000, 4_000))).toMatchObject({ width: 12_000, height: 4_000 });
  });
});
