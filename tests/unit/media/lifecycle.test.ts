import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { judge } from '../../../shared/domain/images/processing.ts';
import { MAX_PHOTO_BYTES } from '../../../shared/domain/images/uploads.ts';
import { eventOfTransition, MEDIA_LIFECYCLE } from '../../../shared/domain/media/lifecycle.ts';
import { EVENT_CATALOGUE } from '../../../shared/events/catalogue.ts';

// 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('the media lifecycle', () => {
  it('announces a photo once its object arrives, and its verdict once', () => {
    expect(eventOfTransition('photo', 'awaiting_upload', 'pending')).toBe('image.uploaded');
    expect(eventOfTransition('photo', 'pending', 'approved')).toBe('image.processed');
    expect(eventOfTransition('photo', 'pending', 'rejected')).toBe('image.processed');
  });

  it('allows no other change, and no change from a final status', () => {
    expect(eventOfTransition('photo', 'awaiting_upload', 'approved')).toBeUndefined();
    expect(eventOfTransition('photo', 'approved', 'rejected')).toBeUndefined();
    expect(eventOfTransition('photo', 'pending', 'pending')).toBeUndefined();
    expect(eventOfTransition('photo', undefined, 'pending')).toBeUndefined();
  });

  it('names only events of the catalogue, and only statuses it knows as targets', () => {
    for (const transitions of Object.values(MEDIA_LIFECYCLE)) {
      const statuses = Object.keys(transitions);
      for (const targets of Object.values(transitions) as Record<string, string>[]) {
        for (const [to, event] of Object.entries(targets)) {
          expect(statuses).toContain(to);
          if (event !== null) expect(Object.keys(EVENT_CATALOGUE)).toContain(event);
        }
      }
    }
  });
});

describe('judging an arrived photo', () => {
  it('approves a readable photo with its clean copy: upright dimensions, the recorded format, no metadata', async () => {
    // Stored sideways (EXIF orientation 6) with a camera make and a GPS position.
    const sideways = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#804020' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 1234/100' } })
      .toBuffer();

    const verdict = await judge(sideways, sideways.length, 'jpeg');

    expect(verdict).toMatchObject({ status: 'approved', photo: { width: 30, height: 40 } });
    const copy = await sharp((verdict as { photo: { bytes: Buffer } }).photo.bytes).metadata();
    expect(copy).toMatchObject({ format: 'jpeg', width: 30, height: 40 });
    expect([copy.exif, copy.xmp, copy.iptc, copy.orientation]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('writes the copy in the format the upload was recorded as', async () => {
    const verdict = await judge(PNG, PNG.length, 'webp');

    expect(verdict).toMatchObject({ status: 'approved', photo: { width: 1, height: 1 } });
    expect((await sharp((verdict as { photo: { bytes: Buffer } }).photo.bytes).metadata()).format).toBe('webp');
  });

  it('rejects bytes that are not a photo, or do not decode cleanly, with the reason an integrator can read', async () => {
    expect(await judge(Buffer.from('hello'), 5, 'png')).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/JPEG/),
    });
    const truncated = (
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer()
    ).subarray(0, -40);
    expect(await judge(truncated, truncated.length, 'jpeg')).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/^the photo could not be decoded: /),
    });
  });

  it('rejects a size other than the declared one, and anything over the limit', async () => {
    expect(await judge(PNG, PNG.length + 1, 'png')).toEqual({
      status: 'rejected',
      reason: `${PNG.length} bytes arrived, ${PNG.length + 1} were declared`,
    });
    expect(await judge(new Uint8Array(MAX_PHOTO_BYTES + 1), null, 'png')).toMatchObject({ status: 'rejected' });
  });
});
