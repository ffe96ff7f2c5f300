// The analysis kinds registry: per kind, the account feature it needs, the model's answer schema, the prompt version
// and the prompt builder. docs/analysis.md prints the prompts; bump the kind's version (prompt-versions.ts) whenever a
// prompt or schema changes (results are cached per version, and `compare_version` reads earlier versions).
import * as z from 'zod/mini';
import { echo } from '../../schema/echo.ts';
import ANSWER_JSON_SCHEMAS from './answer-schemas.json' with { type: 'json' };
import type { Language } from '../reference/i18n.ts';
import type { Species } from '../reference/species.ts';
import { PROMPT_VERSIONS } from './prompt-versions.ts';

export const SEASONS = ['winter', 'spring', 'summer', 'autumn'] as const;
export type Season = (typeof SEASONS)[number];

/** What a prompt may say about the pet and the request. */
export interface PromptContext {
  pet: {
    name: string;
    species: Species;
    breeds: string[];
    sex: string | null;
    neutered: boolean | null;
    ageMonths: number | null;
    weightKg: number | null;
  };
  lang: Language;
  season?: Season | undefined;
  country?: string | undefined;
  /** Earlier results the prompt builds on (health tips): kind → short summary. */
  earlier?: Partial<Record<string, string>>;
  imageCount: number;
}

const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'en-gb': 'British English',
  de: 'German',
  es: 'Spanish',
  fr: 'French',
  pl: 'Polish',
  uk: 'Ukrainian',
};

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const confidence = z.number().check(z.gte(0), z.lte(1));
const recommendations = z.array(text(300)).check(z.minLength(1), z.maxLength(5));
const ordered = (range: { min: number; max: number }) => range.min <= range.max;

/** The most characters of a model's reasoning (`explanation`, `reasons`) a result keeps. */
export const MAX_REASONING_LENGTH = 1200;

/**
 * The model's reasoning: the JSON Schema asks for at most MAX_REASONING_LENGTH characters, and a longer answer is
 * cut there (ending in `…`) before the result is stored, rather than refused: a long explanation never costs the
 * caller a valid score (strict JSON Schema modes do not all enforce `maxLength`).
 */
const reasoning = z.string().check(
  z.minLength(1),
  z.overwrite((value: string) => (value.length > MAX_REASONING_LENGTH ? echo(value, MAX_REASONING_LENGTH - 1) : value)),
  z.maxLength(MAX_REASONING_LENGTH),
);

export const bodyConditionAnswer = z.strictObject({
  score: z.int().check(z.gte(1), z.lte(9)),
  confidence,
  explanation: reasoning,
  recommendations,
});

export const estimatedAgeAnswer = z.strictObject({
  age_months: z.int().check(z.gte(0), z.lte(360)),
  age_range_months: z
    .strictObject({ min: z.int().check(z.gte(0), z.lte(360)), max: z.int().check(z.gte(0), z.lte(360)) })
    .check(z.refine(ordered, 'min must not exceed max')),
  confidence,
  reasons: reasoning,
});

export const genealogyAnswer = z.strictObject({
  is_mixed_breed: z.boolean(),
  breeds: z
    .array(z.strictObject({ name: text(100), percentage: z.int().check(z.gte(1), z.lte(100)), confidence }))
    .check(z.minLength(1), z.maxLength(3)),
  predicted_age_months: z.int().check(z.gte(0), z.lte(360)),
  predicted_sex: z.enum(['male', 'female', 'unknown']),
  confidence,
  description: text(1200),
});

export const MUSCLE_CONDITIONS = ['normal', 'mild_loss', 'moderate_loss', 'severe_loss'] as const;

export const muscleConditionAnswer = z.strictObject({
  muscle_condition: z.enum(MUSCLE_CONDITIONS),
  confidence,
  explanation: reasoning,
  recommendations,
});

export const estimatedWeightAnswer = z.strictObject({
  weight_kg: z.number().check(z.gt(0), z.lte(200)),
  weight_range_kg: z
    .strictObject({ min: z.number().check(z.gt(0), z.lte(200)), max: z.number().check(z.gt(0), z.lte(200)) })
    .check(z.refine(ordered, 'min must not exceed max')),
  confidence,
  reasons: reasoning,
});

export const TIP_CATEGORIES = ['nutrition', 'exercise', 'grooming', 'preventative_care', 'behaviour'] as const;

export const healthTipsAnswer = z.strictObject({
  tips: z
    .array(z.strictObject({ category: z.enum(TIP_CATEGORIES), title: text(120), tip: text(600) }))
    .check(z.minLength(1), z.maxLength(5)),
});

export interface KindDefinition<Answer extends z.ZodMiniType = z.ZodMiniType> {
  /** The result's `type`, the answer's schema name and the cache key's first part. */
  kind: string;
  /** Account feature the route needs (403 naming it otherwise). */
  feature?: string;
  promptVersion: string;
  answer: Answer;
  /** Whether `season` and `country` reach the prompt (and so the cache signature). */
  usesSeasonAndCountry: boolean;
  instructions: string;
  prompt: (context: PromptContext) => string;
}

const INSTRUCTIONS = (task: string) =>
  `You are a veterinary assistant who looks at photos of one pet and ${task}. ` +
  'Judge only what the photos show; when they show little, say so and lower your confidence. ' +
  'Answer by calling the answer tool (or with JSON) exactly in the given schema, nothing else.';

function petLines(c: PromptContext): string {
  const p = c.pet;
  return [
    `Pet: ${p.name}, a ${p.species}${p.breeds.length ? ` (breed on record: ${p.breeds.join(', ')})` : ''}.`,
    `Sex: ${p.sex ?? 'unknown'}; neutered: ${p.neutered === null ? 'unknown' : p.neutered ? 'yes' : 'no'}.`,
    `Age on record: ${p.ageMonths === null ? 'unknown' : `${p.ageMonths} months`}; weight on record: ${p.weightKg === null ? 'unknown' : `${p.weightKg} kg`}.`,
    `Photos attached: ${c.imageCount}.`,
  ].join('\n');
}

const languageLine = (c: PromptContext) =>
  `Write every free-text field in ${LANGUAGE_NAMES[c.lang]} (language code ${c.lang}).`;

function seasonLines(c: PromptContext): string {
  const lines: string[] = [];
  if (c.season) lines.push(`Season: ${c.season} (consider seasonal coat and seasonal weight changes).`);
  if (c.country) lines.push(`Country: ${c.country} (consider its climate and usual practice there).`);
  return lines.join('\n');
}

const join = (...parts: string[]) => parts.filter(Boolean).join('\n\n');

export const KINDS = {
  body_condition_score: {
    kind: 'body_condition_score',
    feature: 'body_condition',
    promptVersion: PROMPT_VERSIONS.body_condition_score,
    answer: bodyConditionAnswer,
    usesSeasonAndCountry: true,
    instructions: INSTRUCTIONS('scores its body condition on the WSAVA 9-point scale'),
    prompt: (c) =>
      join(
        petLines(c),
        seasonLines(c),
        'Score the body condition on the WSAVA 9-point scale (1 emaciated, 4–5 ideal, 9 grossly obese): ribs, waist ' +
          'seen from above, abdominal tuck seen from the side. Give your confidence from 0 to 1, an explanation and ' +
          'up to five practical recommendations for the owner.',
        languageLine(c),
      ),
  },
  estimated_age: {
    kind: 'estimated_age',
    promptVersion: PROMPT_VERSIONS.estimated_age,
    answer: estimatedAgeAnswer,
    usesSeasonAndCountry: false,
    instructions: INSTRUCTIONS('estimates its age'),
    prompt: (c) =>
      join(
        petLines(c),
        'Estimate the age in months from the face, muzzle greying, eyes, coat, teeth if visible and body shape. ' +
          'Give a plausible range in months, your confidence from 0 to 1 and your reasons.',
        languageLine(c),
      ),
  },
  genealogy: {
    kind: 'genealogy',
    promptVersion: PROMPT_VERSIONS.genealogy,
    answer: genealogyAnswer,
    usesSeasonAndCountry: false,
    instructions: INSTRUCTIONS('estimates its breed mixture'),
    prompt: (c) =>
      join(
        petLines(c),
        'Name up to three breeds the pet most likely descends from, with whole-number percentages that add up to ' +
          'at most 100 (leave out what you cannot tell) and your confidence in each breed from 0 to 1, using the ' +
          'common English breed names of the FCI, AKC, TICA or CFA registries. Say whether it is a ' +
          'mixed breed, predict its age in months and its sex, give your confidence from 0 to 1 and a short, ' +
          'friendly description of its looks.',
        languageLine(c),
      ),
  },
  muscle_condition_score: {
    kind: 'muscle_condition_score',
    promptVersion: PROMPT_VERSIONS.muscle_condition_score,
    answer: muscleConditionAnswer,
    usesSeasonAndCountry: false,
    instructions: INSTRUCTIONS('scores its muscle condition on the WSAVA muscle condition scale'),
    prompt: (c) =>
      join(
        petLines(c),
        'Score the muscle condition on the WSAVA scale (normal, mild loss, moderate loss, severe loss) from the ' +
          'spine, scapulae, skull and pelvis. Give your confidence from 0 to 1, an explanation and up to five ' +
          'recommendations.',
        languageLine(c),
      ),
  },
  estimated_weight: {
    kind: 'estimated_weight',
    promptVersion: PROMPT_VERSIONS.estimated_weight,
    answer: estimatedWeightAnswer,
    usesSeasonAndCountry: true,
    instructions: INSTRUCTIONS('estimates its body weight'),
    prompt: (c) =>
      join(
        petLines(c),
        seasonLines(c),
        'Estimate the body weight in kilograms from the size against objects in the photos and the build. Give a ' +
          'range, your confidence from 0 to 1 and your reasons.',
        languageLine(c),
      ),
  },
  health_tips: {
    kind: 'health_tips',
    promptVersion: PROMPT_VERSIONS.health_tips,
    answer: healthTipsAnswer,
    usesSeasonAndCountry: false,
    instructions: INSTRUCTIONS('writes personal health tips for its owner'),
    prompt: (c) =>
      join(
        petLines(c),
        Object.entries(c.earlier ?? {})
          .map(([kind, summary]) => `Earlier ${kind.replaceAll('_', ' ')} result: ${summary}`)
          .join('\n'),
        'Write up to five practical health tips for this pet, at most one per category (nutrition, exercise, ' +
          'grooming, preventative care, behaviour), specific to its breed, age, body and muscle condition.',
        languageLine(c),
      ),
  },
} satisfies Record<string, KindDefinition>;

export type AnalysisKind = keyof typeof KINDS;
export type AnswerOf<K extends AnalysisKind> = z.output<(typeof KINDS)[K]['answer']>;

/**
 * The answer's JSON Schema, as sent to the model: `answer` converted by zod's `toJSONSchema` when `npm run openapi`
 * runs (scripts/openapi/answer-schemas.ts; a unit test fails when the file is stale), not in each function, which
 * would carry the converter (20 KB) to build the same object on every call.
 */
export function answerJsonSchema(kind: AnalysisKind): Record<string, unknown> {
  return ANSWER_JSON_SCHEMAS[kind];
}
