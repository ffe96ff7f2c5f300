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
  it('approves a readable photo with its dimensions and type', () => {
    expect(judge(PNG, PNG.length)).toEqual({ status: 'approved', width: 1, height: 1, mime_type: 'image/png' });
  });

  it('rejects bytes that are not a photo, with the reason an integrator can read', () => {
    expect(judge(Buffer.from('hello'), 5)).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/JPEG/) });
  });

  it('rejects a size other than the declared one, and anything over the limit', () => {
    expect(judge(PNG, PNG.length + 1)).toEqual({
      status: 'rejected',
      reason: `${PNG.length} bytes arrived, ${PNG.length + 1} were declared`,
    });
    expect(judge(new Uint8Array(MAX_PHOTO_BYTES + 1), null)).toMatchObject({ status: 'rejected' });
  });
});
