// Requests that work on a pet's ready photos (the analyses, health tips, portraits) often come right after the
// upload, while the photo is still `pending`: processing takes about a second. Rather than answer "no photos", they
// wait for it within their own time, by a bounded poll with backoff. Still processing when that time is up: 409
// `photos_processing` with `Retry-After`. No photo at all (none ready, none processing) stays each caller's 400.
import type { Deps } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import type { PetMediaItem } from './media.ts';

/**
 * The longest wait (ms). A photo still pending after 8 s is queued behind others or being retried, not about to be
 * ready; the request answers 409 rather than hold its connection for it.
 */
export const MAX_PHOTO_WAIT_MS = 8_000;
/** Reads while waiting: the next after 100 ms, the pause doubling up to 1 s (12 reads in 8 s; never more than 16). */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 1_000;
const MAX_READS = 16;
/** A photo takes about a second: the 409 asks for a little more. */
export const PHOTOS_RETRY_AFTER_SECONDS = 2;

/** What the routes that wait say of it in the reference (OpenAPI descriptions). */
export const PHOTO_WAIT_DOC =
  "Photos still being processed (the first seconds after an upload) are waited for within the request's time; if they are still processing then, 409 `photos_processing` with `Retry-After`. A pet with no photo at all: 400 `pet_has_no_photos`.";

/** What one look at the pet's photos found: those a request may use now, and whether any it would use is processing. */
export interface PhotoLook {
  ready: PetMediaItem[];
  processing: boolean;
}

/** The wait a request can afford: its time left minus what its own work needs afterwards, within [0, MAX]. */
export const photoWaitBudget = (timeLeftMs: number, needsMs: number): number =>
  Math.min(MAX_PHOTO_WAIT_MS, Math.max(0, timeLeftMs - needsMs));

export const photosProcessing = () =>
  conflict(
    `The pet's photos are still being processed (this takes a few seconds at most); try again in ${PHOTOS_RETRY_AFTER_SECONDS} seconds`,
    {
      code: 'photos_processing',
      // Not a refusal of the request: the same request succeeds once the photos are ready (never stored as a replay).
      retryable: true,
      headers: { 'retry-after': String(PHOTOS_RETRY_AFTER_SECONDS) },
    },
  );

/**
 * Looks at the pet's photos until none it would use is processing, or `budgetMs` is spent; then the ready ones
 * (possibly fewer than hoped, possibly none). Throws photosProcessing() when none is ready and some still process.
 * `first` is a look already under way (one made alongside another read).
 */
export async function settledPhotos(
  deps: Pick<Deps, 'now' | 'sleep'>,
  budgetMs: number,
  look: () => Promise<PhotoLook>,
  first: Promise<PhotoLook> = look(),
): Promise<PetMediaItem[]> {
  const deadline = deps.now().getTime() + budgetMs;
  let seen = await first;
  for (let reads = 1, pause = FIRST_PAUSE_MS; seen.processing && reads < MAX_READS; reads++) {
    const left = deadline - deps.now().getTime();
    if (left <= 0) break;
    await deps.sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
    seen = await look();
  }
  if (seen.ready.length === 0 && seen.processing) throw photosProcessing();
  return seen.ready;
}
