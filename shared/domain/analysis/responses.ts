// What the photo-analysis routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from
// these. The model's part of each answer is the schema the model is held to (kinds.ts); the rest is computed.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { healthTipBody } from '../reference/responses.ts';
import { UNIT_SYSTEMS } from '../reference/units.ts';
import {
  bodyConditionAnswer,
  estimatedAgeAnswer,
  estimatedWeightAnswer,
  genealogyAnswer,
  muscleConditionAnswer,
  TIP_CATEGORIES,
} from './kinds.ts';

const model = z.object({
  provider: documented(z.string(), { description: '`bedrock` or `openai` (an OpenAI-compatible server).' }),
  id: z.string(),
});

const recordId = documented(z.nullable(z.string()), {
  description:
    "The result's durable record (`GET /pets/{petId}/records/{recordId}`), kept after the cache expires; null for results cached before records were kept, and for weights from the breed standard alone.",
});

/** The fields every analysis result carries. */
const envelope = {
  id: z.string(),
  pet_id: z.string(),
  type: z.string(),
  prompt_version: documented(z.string(), { description: 'Version of the prompt and answer schema, e.g. `v1`.' }),
  model,
  image_ids: documented(z.array(z.string()), { description: 'The photos the model saw (the newest, at most 4).' }),
  lang: z.string(),
  created_at: z.string(),
  cached: documented(z.boolean(), {
    description: 'True when an identical earlier request (same photos, language and options) answered.',
  }),
  disclaimer: documented(z.string(), {
    description: 'In the requested language: an estimate, not a veterinary diagnosis; see a vet.',
  }),
  validation: documented(z.string(), {
    description: 'One sentence on what the method was checked against, with a link into docs/analysis.md.',
  }),
  record_id: recordId,
};
const seasonal = { season: z.nullable(z.string()), country: z.nullable(z.string()) };

const bodyCondition = z.object({
  ...envelope,
  ...seasonal,
  score: bodyConditionAnswer.shape.score,
  scale: z.literal(9),
  category: documented(z.enum(['underweight', 'ideal', 'overweight', 'obese']), {
    description: 'WSAVA: 1–3 underweight, 4–5 ideal, 6–7 overweight, 8–9 obese.',
  }),
  confidence: bodyConditionAnswer.shape.confidence,
  explanation: bodyConditionAnswer.shape.explanation,
  recommendations: bodyConditionAnswer.shape.recommendations,
});

export const bodyConditionBody = documented(
  z.extend(bodyCondition, {
    comparison: z.optional(
      documented(z.nullable(z.object({ prompt_version: z.string(), result: bodyCondition })), {
        description: 'With `compare_version`: the latest result of that prompt version (null when none).',
      }),
    ),
  }),
  { id: 'BodyConditionScore' },
);

const lifeStage = z.enum(['puppy', 'kitten', 'adult', 'senior']);

export const estimatedAgeBody = documented(
  z.object({
    ...envelope,
    age_months: estimatedAgeAnswer.shape.age_months,
    age_range_months: z.object({ min: z.int(), max: z.int() }),
    life_stage: lifeStage,
    confidence: estimatedAgeAnswer.shape.confidence,
    reasons: estimatedAgeAnswer.shape.reasons,
  }),
  { id: 'EstimatedAge' },
);

export const genealogyBody = documented(
  z.object({
    ...envelope,
    is_mixed_breed: genealogyAnswer.shape.is_mixed_breed,
    breeds: documented(
      z.array(z.object({ breed_id: z.string(), name: z.string(), percentage: z.int(), confidence: z.number() })),
      { description: 'Catalogue breeds the model named with confidence of at least 0.5, biggest share first.' },
    ),
    unresolved: documented(z.int(), {
      description:
        'The share the model could not tell: what it left out of 100, breeds below 0.5 confidence and names matching no catalogue breed. With `breeds` it adds up to exactly 100 (largest remainder).',
    }),
    unresolved_breeds: documented(
      z.array(
        z.object({
          name: z.string(),
          percentage: z.int(),
          confidence: z.number(),
          reason: z.enum(['low_confidence', 'not_in_catalogue']),
        }),
      ),
      { description: 'The names counted in `unresolved`, and why.' },
    ),
    predicted_age_months: genealogyAnswer.shape.predicted_age_months,
    predicted_life_stage: lifeStage,
    predicted_sex: genealogyAnswer.shape.predicted_sex,
    confidence: genealogyAnswer.shape.confidence,
    description: genealogyAnswer.shape.description,
  }),
  { id: 'Genealogy' },
);

export const muscleConditionBody = documented(
  z.object({
    ...envelope,
    muscle_condition: muscleConditionAnswer.shape.muscle_condition,
    wasting_risk: z.boolean(),
    confidence: muscleConditionAnswer.shape.confidence,
    explanation: muscleConditionAnswer.shape.explanation,
    recommendations: muscleConditionAnswer.shape.recommendations,
  }),
  { id: 'MuscleConditionScore' },
);

const weightRange = z.object({ min: z.number(), max: z.number() });

export const estimatedWeightBody = documented(
  z.object({
    ...envelope,
    prompt_version: z.nullable(z.string()),
    model: documented(z.nullable(model), { description: 'Null when the breed standard alone answered.' }),
    ...seasonal,
    method: z.enum(['model_and_breed_standard', 'model', 'breed_standard']),
    weight_kg: z.number(),
    weight_range_kg: weightRange,
    size_class: z.enum(['toy', 'small', 'medium', 'large', 'giant']),
    breed_standard_kg: z.nullable(weightRange),
    body_condition_score: z.nullable(z.int()),
    model_weight: z.nullable(z.number()),
    units: z.enum(UNIT_SYSTEMS),
    weight_lb: z.optional(documented(z.number(), { description: 'With `units=imperial`, to 0.1 lb.' })),
    weight_range_lb: z.optional(weightRange),
    breed_standard_lb: z.optional(z.nullable(weightRange)),
    model_weight_lb: z.optional(z.nullable(z.number())),
    confidence: z.nullable(estimatedWeightAnswer.shape.confidence),
    reasons: z.nullable(estimatedWeightAnswer.shape.reasons),
  }),
  { id: 'EstimatedWeight', description: 'docs/analysis.md gives the formula that combines model and breed standard.' },
);

const tipItem = z.object({
  id: z.string(),
  origin: z.enum(['rule', 'generated']),
  category: z.string(),
  title: z.string(),
  tip: z.string(),
  lang: z.string(),
});

export const petHealthTipsBody = documented(
  z.object({
    pet_id: z.string(),
    lang: z.string(),
    items: documented(
      z.array(
        z.union([
          z.extend(healthTipBody, { origin: z.literal('seeded'), lang: z.string() }),
          z.extend(tipItem, {
            category: documented(z.string(), { description: `One of ${TIP_CATEGORIES.join(', ')} (generated).` }),
          }),
        ]),
      ),
      { description: 'Catalogue tips (`seeded`), then the model’s (`generated`) or fixed rules (`rule`).' },
    ),
    generated: z.nullable(
      z.object({
        id: z.string(),
        prompt_version: z.string(),
        model,
        image_ids: z.array(z.string()),
        created_at: z.string(),
        cached: z.boolean(),
        record_id: recordId,
      }),
    ),
    based_on: documented(z.array(z.string()), { description: 'Ids of the earlier analyses the tips built on.' }),
    created_at: z.string(),
  }),
  { id: 'PetHealthTips' },
);
