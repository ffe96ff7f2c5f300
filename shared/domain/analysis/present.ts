// Stored analyses as the routes answer them, apart from the model call (service.ts) and the prompts (kinds.ts): a vet
// review reads the newest body condition result through this module without bundling either.
import type { Deps } from '../../deps.ts';
import type { Language } from '../reference/i18n.ts';
import { honesty } from './honesty.ts';
import type { AnalysisKind, AnswerOf } from './kinds.ts';
import { PROMPT_VERSIONS } from './prompt-versions.ts';
import { bodyConditionCategory } from './results.ts';
import { readLatest, type StoredAnalysis } from './store.ts';

export function envelope(stored: StoredAnalysis, cached: boolean) {
  return {
    id: stored.id,
    pet_id: stored.pet_id,
    type: stored.type,
    prompt_version: stored.prompt_version,
    model: stored.model,
    image_ids: stored.image_ids,
    lang: stored.lang,
    created_at: stored.created_at,
    cached,
    ...honesty(stored.type as ResultKind, stored.lang as Language),
    record_id: stored.record_id ?? null,
  };
}

/** The kinds answered as results of their own (health tips are a list of tips built on them). */
export type ResultKind = Exclude<AnalysisKind, 'health_tips'>;

export const answerOf = <K extends AnalysisKind>(stored: StoredAnalysis) => stored.answer as AnswerOf<K>;

export function presentBodyCondition(stored: StoredAnalysis, cached: boolean) {
  const a = answerOf<'body_condition_score'>(stored);
  return {
    ...envelope(stored, cached),
    season: stored.season,
    country: stored.country,
    score: a.score,
    scale: 9 as const,
    category: bodyConditionCategory(a.score),
    confidence: a.confidence,
    explanation: a.explanation,
    recommendations: a.recommendations,
  };
}

/**
 * The pet's newest body condition result of the current prompt version, as the route answered it, or undefined when
 * there is none (never asked, or expired): what a vet review reviews.
 */
export async function latestBodyCondition(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, petId: string) {
  const stored = await readLatest(deps, petId, 'body_condition_score', PROMPT_VERSIONS.body_condition_score);
  return stored ? presentBodyCondition(stored, true) : undefined;
}
