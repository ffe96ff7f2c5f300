// Every DynamoDB command of the reviews area. A review sits in its pet's partition next to the pet's pending marker;
// the marker is the "one pending review per pet" rule (a conditional put) and, through gsi1, the vets' queue.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  PENDING_REVIEWS_PARTITION,
  pendingReviewIndex,
  pendingReviewKey,
  petKey,
  petPartition,
  REVIEW_PREFIX,
  reviewIdIndex,
  reviewKey,
} from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import { queryPendingQueue } from '../../db/pending-queue.ts';
import { type CancellationReasons, transact } from '../../db/transact.ts';
import { setFields } from '../../db/update.ts';
import type { Deps } from '../../deps.ts';
import { type PetRecord, recordWrites } from '../records/record.ts';
import { asReview, type ReviewItem } from './review.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

const REVIEW_TYPE = 'BcsReview';
const PENDING_MARKER_TYPE = 'BcsReviewPending';

/**
 * Why a review write did not happen: the pet is gone (or not the caller's), a condition failed, or another
 * transaction was writing the same items at that moment (`contended`: DynamoDB cancels rather than waits; try again).
 */
export type WriteRefusal = 'pet_missing' | 'already_pending' | 'not_pending' | 'contended';

/**
 * Creates the review and the pet's pending marker together, on the owner's existing pet. Refused when the pet already
 * has a pending review (the marker exists) or the pet has gone: the caller reads which.
 */
export async function insertReview(deps: StoreDeps, review: ReviewItem): Promise<WriteRefusal | undefined> {
  const table = deps.config.tableName;
  const write = transact(
    deps.ddb,
    [
      {
        ConditionCheck: {
          TableName: table,
          Key: petKey(review.pet_id),
          ConditionExpression: 'account_id = :account',
          ExpressionAttributeValues: { ':account': review.account_id },
        },
      },
      {
        Put: {
          TableName: table,
          Item: {
            ...pendingReviewKey(review.pet_id),
            ...pendingReviewIndex(review.requested_at, review.id),
            type: PENDING_MARKER_TYPE,
            review_id: review.id,
            pet_id: review.pet_id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...reviewKey(review.pet_id, review.id), ...reviewIdIndex(review.id), type: REVIEW_TYPE, ...review },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    refusals('pet_missing', 'already_pending'),
  );
  return refusalOf(write);
}

/** The id of the pet's pending review, read consistently (the 409 names it). */
export async function readPendingReviewId(deps: StoreDeps, petId: string): Promise<string | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: pendingReviewKey(petId), ConsistentRead: true }),
  );
  return Item?.review_id as string | undefined;
}

export async function readReview(deps: StoreDeps, petId: string, reviewId: string): Promise<ReviewItem | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: reviewKey(petId, reviewId), ConsistentRead: true }),
  );
  return Item ? asReview(Item) : undefined;
}

/** A review by id alone (gsi1): how vets address reviews without knowing the pet. */
export async function findReview(deps: StoreDeps, reviewId: string): Promise<ReviewItem | undefined> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :id',
      ExpressionAttributeValues: { ':id': reviewIdIndex(reviewId).gsi1pk },
    }),
  );
  return Items?.[0] ? asReview(Items[0]) : undefined;
}

/** Every review of one pet, oldest first (a pet has one pending review at a time, so the list grows at vet speed). */
export async function queryPetReviews(deps: StoreDeps, petId: string): Promise<ReviewItem[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :review)',
    ExpressionAttributeValues: { ':pk': petPartition(petId), ':review': REVIEW_PREFIX },
  });
  return items.map(asReview);
}

/** The first `count` pending reviews of all pets, oldest request first. */
export const queryPendingReviews = (deps: StoreDeps, count: number): Promise<ReviewItem[]> =>
  queryPendingQueue(
    deps,
    {
      partition: PENDING_REVIEWS_PARTITION,
      itemKeyOf: (marker) => reviewKey(String(marker.pet_id), String(marker.review_id)),
      idAttribute: 'review_id',
      asItem: asReview,
    },
    count,
  );

/**
 * Records a vet's decision on a pending review, removes the pet's pending marker and keeps the decision as a record of
 * the pet, all or nothing: of two vets deciding at once exactly one succeeds, and makes the only record. Refused when
 * the review is no longer pending or its pet has gone.
 */
export async function writeDecision(
  deps: StoreDeps,
  decided: ReviewItem,
  record: PetRecord,
): Promise<WriteRefusal | undefined> {
  const table = deps.config.tableName;
  const { status, score, category, notes, reason, decided_at, decided_by, record_id } = decided;
  const set = setFields({ status, score, category, notes, reason, decided_at, decided_by, record_id });
  const write = transact(
    deps.ddb,
    [
      {
        Update: {
          TableName: table,
          Key: reviewKey(decided.pet_id, decided.id),
          ...set,
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
          ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':pending': 'pending' },
        },
      },
      {
        Delete: {
          TableName: table,
          Key: pendingReviewKey(decided.pet_id),
          ConditionExpression: 'review_id = :review',
          ExpressionAttributeValues: { ':review': decided.id },
        },
      },
      ...recordWrites(table, record),
    ],
    // The record's id is new, so only the pet's check can fail among its writes.
    refusals('not_pending', 'pet_missing', 'not_pending', 'pet_missing'),
  );
  return refusalOf(write);
}

/** A refused write the store explains itself (the service turns it into a 404 or 409); it never leaves the module. */
class Refused extends Error {
  readonly refusal: WriteRefusal;
  constructor(refusal: WriteRefusal) {
    super(refusal);
    this.refusal = refusal;
  }
}

/** Names the refusal of a transaction by the first of its items whose condition failed, or as contended. */
const refusals =
  (...byItem: WriteRefusal[]) =>
  (reasons: CancellationReasons) => {
    const failed = byItem.findIndex((_, i) => reasons[i] === 'ConditionalCheckFailed');
    if (failed >= 0) return new Refused(byItem[failed]!);
    return reasons.includes('TransactionConflict') ? new Refused('contended') : undefined;
  };

async function refusalOf(write: Promise<void>): Promise<WriteRefusal | undefined> {
  try {
    await write;
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}
