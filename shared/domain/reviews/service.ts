// The reviews area's rules: an owner asks a vet to check the pet's latest body condition result (one pending review
// per pet), vets work through the pending queue and complete or reject each review once. Events follow from the
// committed writes (shared/events/from-stream.ts), so a review that did not commit is never announced.
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, notFound, serviceUnavailable } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { latestBodyCondition } from '../analysis/present.ts';
import { petForReview, petLabels, requireOwnPet } from '../pets/service.ts';
import type { PetReviewsQuery, ReviewQueueQuery } from './input.ts';
import type { RecordInput } from '../records/record.ts';
import { recordedInputs } from '../records/service.ts';
import {
  applyDecision,
  decisionRecord,
  presentReview,
  type ReviewDecision,
  type ReviewItem,
  UNDECIDED,
} from './review.ts';
import {
  findReview,
  insertReview,
  queryPendingReviews,
  queryPetReviews,
  readPendingReviewId,
  readReview,
  writeDecision,
} from './store.ts';

type ReviewDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId'>;
type ReadDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/**
 * A write cancelled by a concurrent transaction on the same items, or a pending marker that vanished between the
 * refused write and its read (decided meanwhile), is tried again, a little later each time.
 */
const WRITE_ATTEMPTS = 4;
const RETRY_DELAY_MS = 25;

async function withRetries<T>(attempt: (last: boolean) => Promise<T | undefined>): Promise<T> {
  for (let n = 1; ; n++) {
    const done = await attempt(n === WRITE_ATTEMPTS);
    if (done !== undefined) return done;
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * n));
  }
}

const busy = (what: string) =>
  serviceUnavailable(`${what} is being changed by other requests: try again`, {
    code: 'busy',
    headers: { 'retry-after': '1' },
  });

const pendingConflict = (petId: string, reviewId: string) =>
  conflict(`Pet ${petId} already has a pending review: ${reviewId}`, {
    code: 'review_pending',
    details: { review_id: reviewId },
  });

/** POST /pets/{petId}/body-condition-score/reviews: 400 without a result to review, 409 naming a pending review. */
export async function requestReview(deps: ReviewDeps, account: Account, petId: string) {
  const pet = await requireOwnPet(deps, account, petId);
  const result = await latestBodyCondition(deps, pet.id);
  if (!result)
    throw badRequest(
      `Pet ${petId} has no body condition result to review: POST /v1/pets/${petId}/body-condition-score first`,
      { code: 'no_body_condition_result' },
    );
  const review: ReviewItem = {
    id: deps.newId(),
    account_id: account.id,
    pet_id: pet.id,
    analysis_id: result.id,
    status: 'pending',
    requested_at: deps.now().toISOString(),
    analysis: {
      score: result.score,
      category: result.category,
      confidence: result.confidence,
      explanation: result.explanation,
      prompt_version: result.prompt_version,
      image_ids: result.image_ids,
      created_at: result.created_at,
    },
    ...UNDECIDED,
    sub_id: pet.sub_id,
    external_owner_id: pet.external_owner_id,
  };
  return withRetries(async (last) => {
    const refusal = await insertReview(deps, review);
    if (!refusal) return presentReview(review);
    if (refusal === 'pet_missing') throw notFound(`Pet ${petId} does not exist`);
    const pendingId = await readPendingReviewId(deps, pet.id);
    if (pendingId) throw pendingConflict(petId, pendingId);
    if (last) throw busy(`Pet ${petId}`);
    return undefined;
  });
}

/** GET /pets/{petId}/body-condition-score/reviews: one page and the total for `Pagination-Count`. */
export async function listPetReviews(deps: ReadDeps, account: Account, petId: string, q: PetReviewsQuery) {
  await requireOwnPet(deps, account, petId);
  const reviews = await queryPetReviews(deps, petId);
  if (q.order === 'DESC') reviews.reverse();
  return { reviews: reviews.slice(q.page * q.limit, (q.page + 1) * q.limit).map(presentReview), total: reviews.length };
}

/**
 * GET /reviews?status=pending: the vets' queue, oldest request first, each review with its pet's name and species (one
 * BatchGetItem for the page); reads no further than the page asked for.
 */
export async function listPendingReviews(deps: ReadDeps, q: ReviewQueueQuery) {
  const reviews = (await queryPendingReviews(deps, (q.page + 1) * q.limit)).slice(q.page * q.limit);
  const pets = await petLabels(
    deps,
    reviews.map((review) => review.pet_id),
  );
  return reviews.map((review) => ({ ...presentReview(review), pet: pets.get(review.pet_id) ?? null }));
}

async function requireReview(deps: ReadDeps, reviewId: string): Promise<ReviewItem> {
  const review = await findReview(deps, reviewId);
  if (!review) throw notFound(`Review ${reviewId} does not exist`);
  return review;
}

/** GET /reviews/{id}: the review with what the vet looks at, the pet's profile and the analysed photos. */
export async function getReview(deps: ReadDeps, reviewId: string) {
  const review = await requireReview(deps, reviewId);
  return { ...presentReview(review), ...(await petForReview(deps, review.pet_id, review.analysis.image_ids)) };
}

/** The reviewed photos, with the SHA-256 the analysis' record kept (null for analyses made before records). */
async function reviewedPhotos(deps: ReadDeps, review: ReviewItem): Promise<RecordInput[]> {
  const analysed = await recordedInputs(deps, review.pet_id, review.analysis_id);
  const hashes = new Map(analysed.map((input) => [input.id, input.sha256]));
  return review.analysis.image_ids.map((id) => ({ kind: 'photo', id, sha256: hashes.get(id) ?? null }));
}

/**
 * POST /reviews/{id}/complete and /reject: the vet's decision on a pending review, kept as a record of the pet that
 * the decided review names (`record_id`). Only one decision ever lands (a conditional transaction, the record in it);
 * any later one is 409 naming the review's status.
 */
export async function decideReview(deps: ReviewDeps, vet: Account, reviewId: string, decision: ReviewDecision) {
  const review = await requireReview(deps, reviewId);
  const decided = applyDecision(review, decision, { vetId: vet.id, at: deps.now(), recordId: deps.newId() });
  const record = decisionRecord(decided, await reviewedPhotos(deps, review));
  return withRetries(async (last) => {
    const refusal = await writeDecision(deps, decided, record);
    if (!refusal) return presentReview(decided);
    if (refusal === 'contended') {
      if (last) throw busy(`Review ${reviewId}`);
      return undefined;
    }
    const current = await readReview(deps, review.pet_id, review.id);
    if (!current || refusal === 'pet_missing') throw notFound(`Review ${reviewId} does not exist`);
    throw conflict(`Review ${reviewId} is already ${current.status}: only pending reviews can be decided`, {
      code: 'review_not_pending',
      details: { review_id: reviewId, status: current.status },
    });
  });
}
