import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import {
  MAX_PHOTO_WAIT_MS,
  type PhotoLook,
  photoWaitBudget,
  settledPhotos,
} from '../../../shared/domain/pets/photo-wait.ts';
import { asPetMedia, type PetMediaItem } from '../../../shared/domain/pets/media.ts';

const photo = (id: string, status: PetMediaItem['status']) =>
  asPetMedia({
    id,
    account_id: 'acc-1',
    pet_id: 'pet-1',
    kind: 'photo',
    status,
    file: `pets/photos/acc-1/pet-1/${id}.jpg`,
    content_type: 'image/jpeg',
    bytes: 100,
    created_at: '2026-11-22T09:00:00.000Z',
  });

/** A fake clock: `sleep` moves `now` on and records each pause; nothing waits for real. */
function fakeClock() {
  let t = Date.parse('2026-11-22T10:00:00Z');
  const pauses: number[] = [];
  return {
    pauses,
    elapsed: () => pauses.reduce((sum, ms) => sum + ms, 0),
    deps: {
      now: () => new Date(t),
      sleep: async (ms: number) => {
        pauses.push(ms);
        t += ms;
      },
    },
  };
}

/** The pet's photos as a look sees them at each moment: `ready` from `readyAfterMs` of waiting on. */
const photosReadyAfter = (clock: ReturnType<typeof fakeClock>, readyAfterMs: number, others: PetMediaItem[] = []) => {
  let reads = 0;
  const look = async (): Promise<PhotoLook> => {
    reads++;
    const done = clock.elapsed() >= readyAfterMs;
    return { ready: [...(done ? [photo('new', 'ready')] : []), ...others], processing: !done };
  };
  return { look, reads: () => reads };
};

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('settledPhotos: waiting for photos still processing', () => {
  it('answers at once, after one read, when no photo it would use is processing', async () => {
    const clock = fakeClock();
    const photos = photosReadyAfter(clock, 0);

    expect(await settledPhotos(clock.deps, 8_000, photos.look)).toEqual([photo('new', 'ready')]);
    expect([photos.reads(), clock.pauses]).toEqual([1, []]);
  });

  it('reads again with growing pauses until the photo is ready, then answers it', async () => {
    const clock = fakeClock();
    const photos = photosReadyAfter(clock, 1_200);

    expect(await settledPhotos(clock.deps, 8_000, photos.look)).toEqual([photo('new', 'ready')]);
    expect(clock.pauses).toEqual([100, 200, 400, 800]);
  });

  it('answers 409 photos_processing with Retry-After when only processing photos remain at the budget’s end', async () => {
    const clock = fakeClock();
    const photos = photosReadyAfter(clock, 60_000);

    const error = await refusal(settledPhotos(clock.deps, 1_000, photos.look));

    expect([error.status, error.code, error.headers]).toEqual([409, 'photos_processing', { 'retry-after': '2' }]);
    expect(error.retryable).toBe(true);
    // The pauses stop at the budget: never a wait past it.
    expect(clock.pauses).toEqual([100, 200, 400, 300]);
  });

  it('answers the ready photos at the budget’s end when others are still processing', async () => {
    const clock = fakeClock();
    const older = photo('older', 'ready');
    const photos = photosReadyAfter(clock, 60_000, [older]);

    expect(await settledPhotos(clock.deps, 500, photos.look)).toEqual([older]);
    expect(clock.elapsed()).toBe(500);
  });

  it('answers an empty list when the pet has no photo at all, for the caller’s own 400', async () => {
    const clock = fakeClock();

    expect(await settledPhotos(clock.deps, 8_000, async () => ({ ready: [], processing: false }))).toEqual([]);
    expect(clock.pauses).toEqual([]);
  });

  it('does not wait without a budget, and reads at most 16 times whatever the clock says', async () => {
    const clock = fakeClock();
    expect((await refusal(settledPhotos(clock.deps, 0, photosReadyAfter(clock, 1).look))).code).toBe(
      'photos_processing',
    );
    expect(clock.pauses).toEqual([]);

    let reads = 0;
    const stoppedClock = { now: () => new Date(0), sleep: async () => undefined };
    const stillProcessing = async () => {
      reads++;
      return { ready: [], processing: true };
    };
    await refusal(settledPhotos(stoppedClock, 8_000, stillProcessing));
    expect(reads).toBe(16);
  });
});

describe('photoWaitBudget', () => {
  it('is the time left minus what the work after it needs, never negative, at most 8 s', () => {
    // Deployed analysis: 29 s function, 28.8 s left at the core, 25 s model budget + 2 s slack.
    expect(photoWaitBudget(28_800, 27_000)).toBe(1_800);
    // Deployed portrait request: 10 s function, 2 s for the write and the queue send.
    expect(photoWaitBudget(9_900, 2_000)).toBe(7_900);
    // Locally (the gateway allows 30 s) the cap holds.
    expect(photoWaitBudget(29_900, 2_000)).toBe(MAX_PHOTO_WAIT_MS);
    expect(photoWaitBudget(10_000, 27_000)).toBe(0);
  });
});
