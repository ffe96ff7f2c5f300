// Handler-test helpers for the reviews area: the accounts involved, a stored review and its pet's analysis result,
// a cancelled transaction, and a call of a review route.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { setDepsForTest } from '../../../shared/deps.ts';
import type { ReviewItem } from '../../../shared/domain/reviews/review.ts';
import { ADMIN_KEY, anAccount, aStoredReview, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, lambdaContext } from '../../support/http-event.ts';
import { aStoredPet, servePet } from '../pets/pet-fixtures.ts';

export { ADMIN_KEY, aStoredReview, USER_KEY as OWNER_KEY };
export const VET_KEY = 'live_vet-test-key';
export const OTHER_KEY = 'live_other-test-key';
export const NOW = new Date('2026-11-24T10:00:00.000Z');

/** The pet's owner (acc-user, with body_condition), another owner, a vet and an administrator. */
export function mockReviewTable() {
  const ddb = mockDynamoWithAccounts([
    { apiKey: USER_KEY, account: anAccount({ features: ['body_condition'] }) },
    { apiKey: OTHER_KEY, account: anAccount({ id: 'acc-other', features: ['body_condition'] }) },
    { apiKey: VET_KEY, account: anAccount({ id: 'acc-vet', role: 'vet', name: 'Dr Vet' }) },
    { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
  ]);
  servePet(ddb, aStoredPet());
  setDepsForTest({ newId: () => 'rev-new', now: () => NOW });
  return ddb;
}

/** The stored review item as the table holds it (keys and type included). */
export const reviewItem = (review: ReviewItem) => ({
  pk: `PET#${review.pet_id}`,
  sk: `REVIEW#${review.id}`,
  gsi1pk: `REVIEW#${review.id}`,
  gsi1sk: 'REVIEW',
  type: 'BcsReview',
  ...review,
});

/** The mocked table answers the pet's latest body condition result. */
export function serveBodyConditionResult(ddb: ReturnType<typeof mockReviewTable>) {
  ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'ANALYSIS_LATEST#body_condition_score#v1' } } as never).resolves({
    Item: {
      type: 'AnalysisLatest',
      expiresAt: Math.floor(NOW.getTime() / 1000) + 3600,
      result: {
        id: 'an-1',
        pet_id: 'pet-1',
        type: 'body_condition_score',
        prompt_version: 'v1',
        model: { provider: 'openai', id: 'fake' },
        image_ids: ['ph-1'],
        lang: 'en',
        season: null,
        country: null,
        based_on: [],
        answer: { score: 7, confidence: 0.8, explanation: 'Waist barely visible', recommendations: ['Cut treats'] },
        created_at: '2026-11-24T08:00:00.000Z',
      },
    },
  });
}

/** Calls a review route: `path` below /v1, the API key, and path parameters, query or JSON body as given. */
export const call = (
  handler: (e: any, c: any) => Promise<any>,
  key: string,
  input: Omit<Parameters<typeof httpEvent>[0], 'headers'>,
) => handler(httpEvent({ ...input, path: `/v1${input.path}`, headers: { 'x-api-key': key } }), lambdaContext);

/**
 * The mocked table finds the pending review rev-1 by id (gsi1) and, read again after a refused decision, answers it
 * as `afterwards` (undefined: gone with its pet).
 */
export function serveReview(ddb: ReturnType<typeof mockReviewTable>, afterwards?: Partial<ReviewItem>) {
  ddb.on(QueryCommand).resolves({ Items: [reviewItem(aStoredReview())] });
  ddb
    .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'REVIEW#rev-1' } } as never)
    .resolves(afterwards ? { Item: reviewItem(aStoredReview(afterwards)) } : {});
}
