// The body condition review: a vet's check of a pet's body condition result (spec: States and transitions). The
// stored item, its response shape (also the body of the pet.bcs.* events) and the one transition rule.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { bodyConditionCategory as categoryOf } from '../analysis/results.ts';
import type { PetRecord, RecordInput } from '../records/record.ts';

export const REVIEW_STATUSES = ['pending', 'completed', 'rejected'] as const;
/** What a vet decides: a completed review carries the vet's score, a rejected one the reason. */
export type ReviewDecision =
  | { status: 'completed'; score: number; notes: string | null }
  | { status: 'rejected'; reason: string };

const bodyConditionCategory = z.enum(['underweight', 'ideal', 'overweight', 'obese']);

/** The analysis result under review, as it was when the review was requested (results expire; the review stays). */
const analysisSnapshot = z.object({
  score: z.number(),
  category: bodyConditionCategory,
  confidence: z.number(),
  explanation: documented(z.nullable(z.string()), {
    description:
      "The model's reasoning for its score: the result's `explanation` (at most 1,200 characters, cut before the result was stored). Null for reviews requested before reviews kept it.",
  }),
  prompt_version: z.string(),
  image_ids: z.array(z.string()),
  created_at: z.string(),
});

/** The response shape, and the resource of both pet.bcs.* events (spec: Delivery body 2). */
export const reviewResource = z.object({
  id: z.string(),
  pet_id: z.string(),
  analysis_id: z.string(),
  status: z.enum(REVIEW_STATUSES),
  requested_at: z.string(),
  analysis: analysisSnapshot,
  /** The vet's score (WSAVA 1–9) and its category, once completed. */
  score: z.nullable(z.number()),
  category: z.nullable(bodyConditionCategory),
  notes: z.nullable(z.string()),
  /** Why the vet rejected the review (e.g. the photos do not show the body), once rejected. */
  reason: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
  record_id: documented(z.nullable(z.string()), {
    description:
      "The decision's record of the pet (GET /pets/{petId}/records/{recordId}), once decided; null while pending and for reviews decided before decisions were kept as records.",
  }),
  /** The pet's integrator ids when the review was requested. */
  sub_id: z.nullable(z.string()),
  external_owner_id: z.nullable(z.string()),
});
export type PresentedReview = z.infer<typeof reviewResource>;

/** The stored snapshot: reviews requested before it kept the model's reasoning have none, read as null. */
const storedSnapshot = z.extend(analysisSnapshot, { explanation: z._default(z.nullable(z.string()), null) });

export const reviewItemSchema = z.object({
  ...reviewResource.shape,
  analysis: storedSnapshot,
  /** Reviews decided before decisions were kept as records have none, read as null. */
  record_id: z._default(z.nullable(z.string()), null),
  /** The pet owner's account: its webhooks receive the events. */
  account_id: z.string(),
  /** The vet (or administrator) account that decided. */
  decided_by: z.nullable(z.string()),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** The decision fields of a review no vet has decided yet. */
export const UNDECIDED = {
  score: null,
  category: null,
  notes: null,
  reason: null,
  decided_at: null,
  decided_by: null,
  record_id: null,
} as const satisfies Partial<ReviewItem>;

export const asReview = (item: Record<string, unknown>): ReviewItem => reviewItemSchema.parse(item);

/** The response (and event) shape: the item without the accounts involved. */
export function presentReview(review: ReviewItem): PresentedReview {
  const { account_id: _owner, decided_by: _vet, ...fields } = review;
  return fields;
}

/** A review a vet has decided: its status is the decision, and it says when, by whom and under which record. */
export type DecidedReview = ReviewItem & {
  status: ReviewDecision['status'];
  decided_at: string;
  decided_by: string;
  record_id: string;
};

/** Who decides, when, and the id of the decision's record (made once, so a retried write offers the same record). */
export interface DecisionMade {
  vetId: string;
  at: Date;
  recordId: string;
}

/**
 * The review after a vet's decision: a completed review carries the vet's score and its WSAVA category, a rejected one
 * the reason. Whether the review may still be decided (it must be pending) is the store's condition, not a read here.
 */
export function applyDecision(review: ReviewItem, decision: ReviewDecision, made: DecisionMade): DecidedReview {
  const completed = decision.status === 'completed' ? decision : undefined;
  return {
    ...review,
    status: decision.status,
    score: completed?.score ?? null,
    category: completed ? categoryOf(completed.score) : null,
    notes: completed?.notes ?? null,
    reason: decision.status === 'rejected' ? decision.reason : null,
    decided_at: made.at.toISOString(),
    decided_by: made.vetId,
    record_id: made.recordId,
  };
}

/**
 * The durable record of a vet's decision (docs/analysis.md#the-pets-record): the decision and the model's result it
 * judged, made from the reviewed analysis and its photos (with their hashes when the analysis' own record has them).
 */
export function decisionRecord(decided: DecidedReview, photos: RecordInput[]): PetRecord {
  const { id: review_id, status, score, category, notes, reason, requested_at, analysis } = decided;
  return {
    id: decided.record_id,
    pet_id: decided.pet_id,
    type: 'bcs_review',
    created_at: decided.decided_at,
    result: { review_id, status, score, category, notes, reason, requested_at, analysis },
    inputs: [{ kind: 'analysis', id: decided.analysis_id, sha256: null }, ...photos],
    provider: null,
    model_id: null,
    method_version: null,
    lang: null,
    season: null,
    country: null,
    asked_by: { account_id: decided.account_id, sub_id: decided.sub_id },
    vet: { account_id: decided.decided_by, decision: status },
  };
}
