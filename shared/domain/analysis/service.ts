// Photo analysis of a pet: photos from the pets area, one cached model call per request signature (analysis type,
// prompt version, photo hashes, lang, season, country), results computed from the validated answer.
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { toModelImage } from '../../media/model-image.ts';
import { type VisionModel, VisionUnavailable } from '../../ports/vision-model.ts';
import type { Language } from '../reference/i18n.ts';
import type { Account } from '../accounts/account.ts';
import { type BreedRecord, loadBreeds } from '../reference/breeds.ts';
import { petAgeInMonths } from '../pets/age.ts';
import type { PetItem } from '../pets/pet.ts';
import { photoWaitBudget } from '../pets/photo-wait.ts';
import { listReadyPhotos, readPhotoBytes } from '../pets/service.ts';
import { analysisUnavailable, askModel, observeProviderCall } from './ask.ts';
import { type AnalysisKind, type AnswerOf, KINDS, type PromptContext, type Season } from './kinds.ts';
import { estimateWeight, genealogyBreeds, lifeStage, wastingRisk, weightInPounds } from './results.ts';
import { honesty } from './honesty.ts';
import type { UnitSystem } from '../reference/units.ts';
import { requestSignature } from './signature.ts';
import { answerOf, envelope, presentBodyCondition } from './present.ts';
import { claimSlot, completeSlot, readLatest, readSlot, releaseSlot, type StoredAnalysis } from './store.ts';
import type { PetRecord, RecordType } from '../records/record.ts';

export type AnalysisDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'sleep' | 'newId' | 'random' | 'log'> & {
  vision: VisionModel;
};

/** The newest photos a question carries: enough angles for a body score, a bounded cost per call. */
export const MAX_PHOTOS_PER_ANALYSIS = 4;
/** How often a request that found the signature taken looks for the result. */
const WAIT_POLL_MS = 200;
/** Beyond the model budget: photo reads and resizing before the call, the result write after it. */
const WAIT_SLACK_MS = 2_000;
/** A claim outlives its owner's work by this much; a claim older than that is free to take (its owner died). */
const CLAIM_SLACK_MS = 5_000;

export interface AnalysisOptions {
  lang: Language;
  season?: Season | undefined;
  country?: string | undefined;
  /** What the request may still run (ms): photos still processing are waited for within what the analysis leaves. */
  timeLeftMs: number;
}

/**
 * What an analysis needs once its photos are ready: the model budget and the slack around the call (WAIT_SLACK_MS).
 * Deployed: 25 s + 2 s of the function's 29 s, so photos are waited for about 1.5–2 s; photo waiting never cuts into
 * the model's time.
 */
const analysisNeedsMs = (deps: AnalysisDeps) => deps.config.analysis.timeoutMs + WAIT_SLACK_MS;

interface Subject {
  pet: PetItem;
  breeds: BreedRecord[];
  photos: { id: string; sha256: string | null; load: () => Promise<Uint8Array> }[];
}

/** The pet, its breeds and the photos to analyse: 400 without any photo, 409 while its only photos still process. */
async function subjectOf(deps: AnalysisDeps, account: Account, petId: string, timeLeftMs: number): Promise<Subject> {
  const waitMs = photoWaitBudget(timeLeftMs, analysisNeedsMs(deps));
  const [{ pet, photos }, catalogue] = await Promise.all([
    listReadyPhotos(deps, account, petId, { max: MAX_PHOTOS_PER_ANALYSIS, waitMs }),
    loadBreeds(deps),
  ]);
  if (photos.length === 0)
    throw badRequest(`Pet ${petId} has no photos to analyse: upload at least one photo first`, {
      code: 'pet_has_no_photos',
    });
  const byId = new Map(catalogue.map((b) => [b.id, b]));
  return {
    pet,
    breeds: pet.breed_ids.flatMap((id) => byId.get(id) ?? []),
    photos: photos.map((photo) => ({
      id: photo.id,
      sha256: photo.sha256,
      load: () => readPhotoBytes(deps, photo),
    })),
  };
}

function promptContext(deps: AnalysisDeps, subject: Subject, options: AnalysisOptions, kind: AnalysisKind) {
  const { pet } = subject;
  const withSeason = KINDS[kind].usesSeasonAndCountry;
  return {
    pet: {
      name: pet.name,
      species: pet.species_id,
      breeds: subject.breeds.map((b) => b.name),
      sex: pet.sex,
      neutered: pet.neutered,
      ageMonths: petAgeInMonths(pet.birth_date, deps.now()),
      weightKg: pet.weight_kg,
    },
    lang: options.lang,
    season: withSeason ? options.season : undefined,
    country: withSeason ? options.country : undefined,
    imageCount: subject.photos.length,
  } satisfies PromptContext;
}

/**
 * The stored answer for this signature, or a new one from the model. Only the request that claims the signature
 * calls the provider; identical requests meanwhile wait for its result (and get `cached: true`). A failure releases
 * the claim and caches nothing.
 */
async function answerFor<K extends AnalysisKind>(
  deps: AnalysisDeps,
  kind: K,
  subject: Subject,
  context: PromptContext,
  basedOn: string[] = [],
): Promise<{ stored: StoredAnalysis; cached: boolean }> {
  const definition = KINDS[kind];
  const { pet } = subject;
  if (deps.vision.unavailable) throw analysisUnavailable(deps.vision.unavailable);
  const signature = requestSignature({
    kind,
    promptVersion: definition.promptVersion,
    photoHashes: subject.photos.map((p) => p.sha256 ?? p.id),
    lang: context.lang,
    season: context.season,
    country: context.country,
    basedOn,
  });
  const budgetMs = deps.config.analysis.timeoutMs;
  // Waiting stops in time to answer 503 ourselves before the function (29 s) and API Gateway (30 s) give up.
  const deadline = Date.now() + budgetMs + WAIT_SLACK_MS;
  const owner = deps.newId();
  while (Date.now() < deadline) {
    const slot = await readSlot(deps, pet.id, kind, signature);
    if (slot.state === 'done') return { stored: slot.result, cached: true };
    if (
      slot.state === 'running' ||
      !(await claimSlot(deps, pet.id, kind, signature, owner, budgetMs + CLAIM_SLACK_MS))
    ) {
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
      continue;
    }
    try {
      const images = await Promise.all(subject.photos.map(async (p) => toModelImage(await p.load())));
      const answer = await observeProviderCall(() => askModel(deps.vision, kind, context, images, budgetMs));
      const id = deps.newId();
      const stored: StoredAnalysis = {
        id,
        pet_id: pet.id,
        type: kind,
        prompt_version: definition.promptVersion,
        model: { provider: deps.vision.provider, id: deps.vision.modelId! },
        image_ids: subject.photos.map((p) => p.id),
        lang: context.lang,
        season: context.season ?? null,
        country: context.country ?? null,
        based_on: basedOn,
        answer,
        created_at: deps.now().toISOString(),
        record_id: id,
      };
      await completeSlot(deps, signature, owner, stored, analysisRecord(stored, subject));
      return { stored, cached: false };
    } catch (error) {
      await releaseSlot(deps, pet.id, kind, signature, owner);
      if (error instanceof VisionUnavailable) {
        const expected = error.reason === 'throttled' || error.reason === 'timeout';
        (expected ? deps.log.info : deps.log.error)('vision model unavailable', {
          kind,
          petId: pet.id,
          reason: error.reason,
          cause: error.cause,
        });
        throw analysisUnavailable(error);
      }
      throw error;
    }
  }
  throw analysisUnavailable(new VisionUnavailable('timeout', 'An identical analysis is still running: try again'));
}

/** The durable record of a new answer: the photos it saw with their hashes and the earlier results it built on. */
function analysisRecord(stored: StoredAnalysis, subject: Subject): PetRecord {
  return {
    id: stored.id,
    pet_id: stored.pet_id,
    type: stored.type as RecordType,
    created_at: stored.created_at,
    result: stored.answer as Record<string, unknown>,
    inputs: [
      ...subject.photos.map((p) => ({ kind: 'photo' as const, id: p.id, sha256: p.sha256 })),
      ...stored.based_on.map((id) => ({ kind: 'analysis' as const, id, sha256: null })),
    ],
    provider: stored.model.provider,
    model_id: stored.model.id,
    method_version: stored.prompt_version,
    lang: stored.lang,
    season: stored.season,
    country: stored.country,
    asked_by: { account_id: subject.pet.account_id, sub_id: subject.pet.sub_id },
    vet: null,
  };
}

/** The fields every analysis result carries. */
export async function bodyConditionScore(
  deps: AnalysisDeps,
  account: Account,
  petId: string,
  options: AnalysisOptions & { compareVersion?: string | undefined },
) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const context = promptContext(deps, subject, options, 'body_condition_score');
  const { stored, cached } = await answerFor(deps, 'body_condition_score', subject, context);
  const result = presentBodyCondition(stored, cached);
  if (options.compareVersion === undefined) return result;
  const earlier = await readLatest(deps, petId, 'body_condition_score', options.compareVersion);
  return {
    ...result,
    comparison: earlier
      ? { prompt_version: earlier.prompt_version, result: presentBodyCondition(earlier, true) }
      : null,
  };
}

export async function estimatedAge(deps: AnalysisDeps, account: Account, petId: string, options: AnalysisOptions) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const { stored, cached } = await answerFor(
    deps,
    'estimated_age',
    subject,
    promptContext(deps, subject, options, 'estimated_age'),
  );
  const a = answerOf<'estimated_age'>(stored);
  return {
    ...envelope(stored, cached),
    age_months: a.age_months,
    age_range_months: a.age_range_months,
    life_stage: lifeStage(subject.pet.species_id, a.age_months),
    confidence: a.confidence,
    reasons: a.reasons,
  };
}

export async function genealogy(deps: AnalysisDeps, account: Account, petId: string, options: AnalysisOptions) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const [{ stored, cached }, catalogue] = await Promise.all([
    answerFor(deps, 'genealogy', subject, promptContext(deps, subject, options, 'genealogy')),
    loadBreeds(deps),
  ]);
  const a = answerOf<'genealogy'>(stored);
  return {
    ...envelope(stored, cached),
    is_mixed_breed: a.is_mixed_breed,
    ...genealogyBreeds(a.breeds, subject.pet.species_id, catalogue),
    predicted_age_months: a.predicted_age_months,
    predicted_life_stage: lifeStage(subject.pet.species_id, a.predicted_age_months),
    predicted_sex: a.predicted_sex,
    confidence: a.confidence,
    description: a.description,
  };
}

export async function muscleConditionScore(
  deps: AnalysisDeps,
  account: Account,
  petId: string,
  options: AnalysisOptions,
) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const { stored, cached } = await answerFor(
    deps,
    'muscle_condition_score',
    subject,
    promptContext(deps, subject, options, 'muscle_condition_score'),
  );
  const a = answerOf<'muscle_condition_score'>(stored);
  return {
    ...envelope(stored, cached),
    muscle_condition: a.muscle_condition,
    wasting_risk: wastingRisk(a.muscle_condition),
    confidence: a.confidence,
    explanation: a.explanation,
    recommendations: a.recommendations,
  };
}

/**
 * The model's estimate combined with the breed standard and the latest body condition score (results.ts). With no
 * model configured, the breed standard alone (`method: breed_standard`) when the pet has a breed; otherwise 503.
 */
export async function estimatedWeight(
  deps: AnalysisDeps,
  account: Account,
  petId: string,
  options: AnalysisOptions & { units: UnitSystem },
) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const { pet } = subject;
  const standard = subject.breeds.find((b) => b.weight)?.weight?.metric ?? null;
  const latestBcs = await readLatest(deps, petId, 'body_condition_score', KINDS.body_condition_score.promptVersion);
  const bcs = latestBcs ? answerOf<'body_condition_score'>(latestBcs).score : undefined;
  const combine = (model: AnswerOf<'estimated_weight'> | undefined) => {
    const estimate = estimateWeight({ species: pet.species_id, sex: pet.sex, standard, bcs, model })!;
    return { ...estimate, units: options.units, ...(options.units === 'imperial' && weightInPounds(estimate)) };
  };

  if (deps.vision.unavailable?.reason === 'not_configured' && standard) {
    return {
      id: deps.newId(),
      pet_id: pet.id,
      type: 'estimated_weight',
      prompt_version: null,
      model: null,
      image_ids: subject.photos.map((p) => p.id),
      lang: options.lang,
      created_at: deps.now().toISOString(),
      cached: false,
      record_id: null,
      season: options.season ?? null,
      country: options.country ?? null,
      ...combine(undefined),
      ...honesty('estimated_weight', options.lang),
      confidence: null,
      reasons: null,
    };
  }
  const { stored, cached } = await answerFor(
    deps,
    'estimated_weight',
    subject,
    promptContext(deps, subject, options, 'estimated_weight'),
  );
  const a = answerOf<'estimated_weight'>(stored);
  return {
    ...envelope(stored, cached),
    season: stored.season,
    country: stored.country,
    ...combine(a),
    confidence: a.confidence,
    reasons: a.reasons,
  };
}

export { answerFor, subjectOf, promptContext };
