// Personalised health tips: the catalogue's tips for the pet's breed and species (seeded), tips the vision model
// writes from the pet and its earlier results (generated), or, with no model, tips derived from those results by
// fixed rules (rule). Each item says its origin.
import type { Account } from '../accounts/account.ts';
import { findHealthTips, presentHealthTip } from '../reference/health-tips.ts';
import { presentation } from '../reference/content.ts';
import type { Language } from '../reference/i18n.ts';
import { KINDS, type AnswerOf } from './kinds.ts';
import { bodyConditionCategory, lifeStage, wastingRisk } from './results.ts';
import { petAgeInMonths } from '../pets/age.ts';
import { type AnalysisDeps, answerFor, promptContext, subjectOf } from './service.ts';
import { readLatest, type StoredAnalysis } from './store.ts';

/** Seeded tips per answer: the breed's own first, then species-wide ones for the pet's life stage. */
export const MAX_SEEDED_TIPS = 10;

export interface HealthTipsOptions {
  lang: Language;
  includeSeeded: boolean;
  includeSources: boolean;
  /** What the request may still run (ms), as for the analyses. */
  timeLeftMs: number;
}

const EARLIER_KINDS = ['genealogy', 'body_condition_score', 'muscle_condition_score'] as const;

function summary(stored: StoredAnalysis): string {
  if (stored.type === 'body_condition_score') {
    const a = stored.answer as AnswerOf<'body_condition_score'>;
    return `score ${a.score} of 9 (${bodyConditionCategory(a.score)})`;
  }
  if (stored.type === 'muscle_condition_score')
    return (stored.answer as AnswerOf<'muscle_condition_score'>).muscle_condition.replace('_', ' ');
  const a = stored.answer as AnswerOf<'genealogy'>;
  return a.breeds.map((b) => `${b.name} ${b.percentage}%`).join(', ');
}

interface RuleTip {
  id: string;
  category: string;
  title: string;
  tip: string;
}

/** Tips that follow from stored results and the pet's age alone (English; no model involved). */
export function ruleTips(earlier: Partial<Record<string, StoredAnalysis>>, ageStage: string | null): RuleTip[] {
  const tips: RuleTip[] = [];
  const bcs = earlier.body_condition_score?.answer as AnswerOf<'body_condition_score'> | undefined;
  if (bcs && bcs.score >= 7)
    tips.push({
      id: 'rule-weight-management',
      category: 'nutrition',
      title: 'Plan a gradual weight loss',
      tip: `The last body condition score was ${bcs.score} of 9. Weigh the daily food, cut treats to under 10 % of calories and aim to lose 1–2 % of body weight a week; ask your vet for a target weight.`,
    });
  if (bcs && bcs.score <= 3)
    tips.push({
      id: 'rule-underweight-check',
      category: 'preventative_care',
      title: 'Have the low body condition checked',
      tip: `The last body condition score was ${bcs.score} of 9. Book a vet check to rule out illness, parasites or dental pain before increasing the food.`,
    });
  const muscle = earlier.muscle_condition_score?.answer as AnswerOf<'muscle_condition_score'> | undefined;
  if (muscle && wastingRisk(muscle.muscle_condition))
    tips.push({
      id: 'rule-muscle-loss',
      category: 'preventative_care',
      title: 'Ask your vet about the muscle loss',
      tip: `The last muscle condition result was ${muscle.muscle_condition.replace('_', ' ')}. Muscle loss can come with age, pain or illness; a vet can find the cause, and regular gentle exercise with enough protein helps keep muscle.`,
    });
  if (ageStage === 'senior')
    tips.push({
      id: 'rule-senior-checkups',
      category: 'preventative_care',
      title: 'Twice-yearly senior check-ups',
      tip: 'Senior pets benefit from a vet check every six months, with blood and urine tests, so that kidney, thyroid and joint problems are found early.',
    });
  if (ageStage === 'puppy' || ageStage === 'kitten')
    tips.push({
      id: 'rule-young-vaccinations',
      category: 'preventative_care',
      title: 'Complete the first vaccinations',
      tip: 'Young animals need a series of core vaccinations, the last one at 16 weeks or later, and a booster a year later; keep the vet record up to date.',
    });
  return tips;
}

export async function petHealthTips(deps: AnalysisDeps, account: Account, petId: string, options: HealthTipsOptions) {
  const subject = await subjectOf(deps, account, petId, options.timeLeftMs);
  const { pet } = subject;
  const months = petAgeInMonths(pet.birth_date, deps.now());
  const ageStage = months === null ? null : lifeStage(pet.species_id, months);

  const earlierList = await Promise.all(
    EARLIER_KINDS.map((kind) => readLatest(deps, petId, kind, KINDS[kind].promptVersion)),
  );
  const earlier = Object.fromEntries(
    earlierList.flatMap((stored, i) => (stored ? [[EARLIER_KINDS[i]!, stored] as const] : [])),
  );

  const seeded = options.includeSeeded ? await seededTips(deps, pet, ageStage, options) : [];

  if (deps.vision.unavailable?.reason === 'not_configured') {
    return {
      pet_id: pet.id,
      lang: options.lang,
      items: [...seeded, ...ruleTips(earlier, ageStage).map((t) => ({ ...t, origin: 'rule' as const, lang: 'en' }))],
      generated: null,
      based_on: Object.values(earlier).map((s) => s.id),
      created_at: deps.now().toISOString(),
    };
  }

  const context = {
    ...promptContext(deps, subject, options, 'health_tips'),
    earlier: Object.fromEntries(Object.entries(earlier).map(([kind, stored]) => [kind, summary(stored)])),
  };
  const basedOn = Object.values(earlier).map((s) => s.id);
  const { stored, cached } = await answerFor(deps, 'health_tips', subject, context, basedOn);
  const generated = (stored.answer as AnswerOf<'health_tips'>).tips.map((t, i) => ({
    id: `${stored.id}-${i + 1}`,
    origin: 'generated' as const,
    category: t.category,
    title: t.title,
    tip: t.tip,
    lang: stored.lang,
  }));
  return {
    pet_id: pet.id,
    lang: options.lang,
    items: [...seeded, ...generated],
    generated: {
      id: stored.id,
      prompt_version: stored.prompt_version,
      model: stored.model,
      image_ids: stored.image_ids,
      created_at: stored.created_at,
      cached,
      record_id: stored.record_id ?? null,
    },
    based_on: stored.based_on,
    created_at: deps.now().toISOString(),
  };
}

async function seededTips(
  deps: AnalysisDeps,
  pet: { species_id: 'dog' | 'cat'; breed_ids: string[] },
  ageStage: string | null,
  options: HealthTipsOptions,
) {
  const primary = pet.breed_ids[0];
  const speciesTips = await findHealthTips(deps, { speciesId: pet.species_id });
  const stage = ageStage === 'puppy' || ageStage === 'kitten' ? 'young' : ageStage;
  const forBreed = primary ? speciesTips.filter((t) => t.breed_id === primary) : [];
  const general = speciesTips.filter(
    (t) => t.breed_id === null && t.species_id === pet.species_id && (t.life_stage === null || t.life_stage === stage),
  );
  const shown = presentation(options.lang, options.includeSources);
  return [...forBreed, ...general]
    .slice(0, MAX_SEEDED_TIPS)
    .map((t) => ({ ...presentHealthTip(t, shown), origin: 'seeded' as const, lang: options.lang }));
}
