// The respiratory rate (early access): a request records a `processing` measurement of one of the pet's videos; its
// committed write reaches the measuring consumer through the table stream (a request that did not commit never runs
// work); the consumer decodes the video with ffmpeg, measures (signal.ts) and finishes the record, and that change
// becomes the `pet.respiratory_rate.completed` event. docs/respiratory-rate.md.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import { type GrayFrameSampling, grayFrames, UnreadableVideo, type VideoTools } from '../../media/video-tools.ts';
import type { Account } from '../accounts/account.ts';
import { downloadMediaObject } from '../media/objects.ts';
import type { PetMediaItem } from '../pets/media.ts';
import type { PetItem } from '../pets/pet.ts';
import {
  findPetMedia,
  NEWEST_MEDIA_WINDOW,
  newestPetVideos,
  requireOwnPet,
  requireOwnPetMedia,
} from '../pets/service.ts';
import type { Language } from '../reference/i18n.ts';
import { baselineFor, isWithin } from './baselines.ts';
import { asMeasurement, type Measurement, measurementRecord, presentMeasurement } from './measurement.ts';
import { type BreathingMeasurement, measureBreathing } from './signal.ts';
import {
  finishMeasurement,
  insertMeasurement,
  listCompletedMeasurements,
  newestCompletedMeasurements,
  readMeasurement,
  startAttempt,
} from './store.ts';
import { alertRuleOf, BASELINE_WINDOW, defaultAlertRule, judgeRate, type RatePoint, trendOf } from './trend.ts';

/** Ten small grey frames a second from the first minute: enough for 6–90 breaths a minute, bounded for any file. */
export const SAMPLING: GrayFrameSampling = { fps: 10, width: 128, height: 96, maxSeconds: 60 };

/** Attempts after which a measurement whose worker keeps failing ends `failed` (measurement_error). */
export const MEASUREMENT_ATTEMPTS = 3;

type RequestDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random' | 'log'>;

/** The video to measure: the one named (a ready video of this pet) or the pet's newest ready video. */
async function chooseVideo(
  deps: RequestDeps,
  account: Account,
  pet: PetItem,
  videoId: string | undefined,
): Promise<PetMediaItem> {
  if (videoId) {
    const { media } = await requireOwnPetMedia(deps, account, pet.id, videoId);
    if (media.kind !== 'video')
      throw badRequest(`video_id: ${videoId} is a ${media.kind}, not a video`, { code: 'not_a_video' });
    if (media.status !== 'ready')
      throw badRequest(`video_id: ${videoId} is ${media.status}, not ready yet`, { code: 'video_not_ready' });
    return media;
  }
  const videos = await newestPetVideos(deps, pet.id);
  const newest = videos.find((v) => v.status === 'ready');
  if (newest) return newest;
  throw badRequest(
    videos.length > 0
      ? `None of the pet's ${NEWEST_MEDIA_WINDOW} newest videos is processed yet; try again when one is ready, or name one in video_id`
      : 'The pet has no videos: add one with POST /pets/{petId}/videos first',
    { code: videos.length > 0 ? 'video_not_ready' : 'pet_has_no_videos' },
  );
}

/** POST /pets/{petId}/respiratory-rate: a `processing` measurement, committed before any work starts. */
export async function requestRespiratoryRate(
  deps: RequestDeps,
  account: Account,
  petId: string,
  request: { video_id?: string | undefined; lang: Language },
): Promise<Measurement> {
  const pet = await requireOwnPet(deps, account, petId);
  const video = await chooseVideo(deps, account, pet, request.video_id);
  const measurement = asMeasurement({
    id: deps.newId(),
    account_id: pet.account_id,
    pet_id: pet.id,
    video_id: video.id,
    status: 'processing',
    breed_baseline: baselineFor(pet),
    alert_rule: alertRuleOf(pet),
    sub_id: pet.sub_id,
    external_owner_id: pet.external_owner_id,
    lang: request.lang,
    created_at: deps.now().toISOString(),
  });
  await insertMeasurement(deps, measurement);
  return measurement;
}

/** GET /pets/{petId}/respiratory-rate/{id}. */
export async function getRespiratoryRate(
  deps: RequestDeps,
  account: Account,
  petId: string,
  id: string,
): Promise<Measurement> {
  await requireOwnPet(deps, account, petId);
  const measurement = await readMeasurement(deps, petId, id);
  if (!measurement) throw notFound(`Respiratory rate measurement ${id} does not exist on pet ${petId}`);
  return measurement;
}

/** The completed measurements' rates, for the trend and the alert rules. */
export const ratePoints = (measurements: Measurement[]): RatePoint[] =>
  measurements.flatMap(({ id, breaths_per_minute, created_at }) =>
    breaths_per_minute === null ? [] : [{ id, breaths_per_minute, created_at }],
  );

/**
 * GET /pets/{petId}/respiratory-rate: a page of the pet's completed measurements, newest first, and the trend of its
 * newest ones (the same on every page).
 */
export async function listRespiratoryRates(
  deps: RequestDeps,
  account: Account,
  petId: string,
  query: { limit: number; cursor?: string | undefined; lang?: Language | undefined },
) {
  await requireOwnPet(deps, account, petId);
  const [page, newest] = await Promise.all([
    listCompletedMeasurements(deps, petId, { limit: query.limit, cursor: query.cursor }),
    newestCompletedMeasurements(deps, petId, BASELINE_WINDOW + 1),
  ]);
  return {
    body: {
      trend: trendOf(ratePoints(newest)),
      measurements: page.measurements.map((m) => presentMeasurement(m, query.lang)),
    },
    cursor: page.cursor,
  };
}

type MeasureDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>;

/**
 * The alert a completed rate raises, judged by the rule in force when it was requested against the pet's completed
 * measurements before it; stored by the completing write, so it is decided once (docs/respiratory-rate.md#alerts).
 */
async function alertOf(deps: MeasureDeps, measurement: Measurement, rate: number) {
  const earlier = await newestCompletedMeasurements(deps, measurement.pet_id, BASELINE_WINDOW, measurement.id);
  return judgeRate(rate, ratePoints(earlier), measurement.alert_rule ?? defaultAlertRule(measurement.breed_baseline));
}

/**
 * Finishes a measurement with its rate and the alert it raises, and writes its record of the pet in the same
 * transaction.
 */
async function complete(
  deps: MeasureDeps,
  measurement: Measurement,
  outcome: Extract<BreathingMeasurement, { status: 'completed' }>,
  video: Pick<PetMediaItem, 'id' | 'sha256'>,
) {
  const rate = outcome.breathsPerMinute;
  const fields = {
    status: 'completed' as const,
    breaths_per_minute: rate,
    within_baseline: isWithin(rate, measurement.breed_baseline),
    alert: await alertOf(deps, measurement, rate),
    signal_quality: outcome.quality,
    generated_at: deps.now().toISOString(),
  };
  return finishMeasurement(deps, measurement, fields, measurementRecord({ ...measurement, ...fields }, video));
}

/**
 * The consumer's work for one new measurement: at most MEASUREMENT_ATTEMPTS tries, each counted before it starts, so
 * a worker that keeps crashing ends the measurement `failed` instead of leaving it processing. A measurement already
 * finished (a redelivered stream record) or deleted with its pet is left alone.
 */
export async function measureRespiratoryRate(
  deps: MeasureDeps,
  job: Pick<Measurement, 'pet_id' | 'id'>,
  tools: VideoTools,
): Promise<void> {
  const measurement = await startAttempt(deps, job.pet_id, job.id);
  if (!measurement) return;
  const fail = (reason: Measurement['reason'], quality: number | null = null) =>
    finishMeasurement(deps, measurement, {
      status: 'failed',
      reason,
      signal_quality: quality,
      generated_at: deps.now().toISOString(),
    });
  if (measurement.attempts > MEASUREMENT_ATTEMPTS) {
    deps.log.error('respiratory rate measurement failed on every attempt', { measurementId: measurement.id });
    await fail('measurement_error');
    return;
  }
  const item = await findPetMedia(deps, measurement.pet_id, measurement.video_id);
  if (!item?.display_key || item.status !== 'ready') {
    await fail('video_unavailable');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'respiration-'));
  try {
    const file = join(dir, 'video');
    const sha256 = await downloadMediaObject(deps, item.display_key, file);
    const frames = await grayFrames(tools, file, SAMPLING);
    const outcome = measureBreathing({ ...SAMPLING, ...frames });
    await (outcome.status === 'completed'
      ? complete(deps, measurement, outcome, { id: item.id, sha256 })
      : fail(outcome.reason, outcome.quality));
  } catch (error) {
    if (!(error instanceof UnreadableVideo)) throw error;
    deps.log.info('respiratory rate: the video could not be decoded', { measurementId: measurement.id, error });
    await fail('video_unavailable');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
