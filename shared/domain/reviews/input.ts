// Request schemas of the review routes (owner and vet).
import * as z from 'zod/mini';
import { pageParam } from '../../schema/paging.ts';
import { caseInsensitiveEnum, integer, text } from '../../schema/params.ts';

export const MAX_NOTES_LENGTH = 2000;
export const MAX_REASON_LENGTH = 1000;

const limit = z._default(integer({ min: 1, max: 100 }), 10);

/** GET /pets/{petId}/body-condition-score/reviews: page-style, oldest first unless `order=DESC`. */
export const petReviewsQuery = z.strictObject({
  limit,
  page: pageParam,
  order: z._default(caseInsensitiveEnum(['ASC', 'DESC'] as const), 'ASC'),
});

/** GET /reviews: the vets' queue, oldest request first. Decided reviews are read by id or in their pet's list. */
export const reviewQueueQuery = z.strictObject({
  status: z._default(caseInsensitiveEnum(['pending'] as const), 'pending'),
  limit,
  page: pageParam,
});

/** POST /reviews/{id}/complete: the vet's own WSAVA score and optional notes for the owner. */
export const completeReviewBody = z.strictObject({
  score: z.int().check(z.gte(1), z.lte(9)),
  notes: z._default(z.nullable(text({ max: MAX_NOTES_LENGTH, lineBreaks: true })), null),
});

/** POST /reviews/{id}/reject: why the result cannot be reviewed (the owner reads it). */
export const rejectReviewBody = z.strictObject({ reason: text({ max: MAX_REASON_LENGTH, lineBreaks: true }) });

export type PetReviewsQuery = z.output<typeof petReviewsQuery>;
export type ReviewQueueQuery = z.output<typeof reviewQueueQuery>;

export const reviewParams = z.strictObject({ id: text({ max: 40 }) });
