import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/request-review.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  ADMIN_KEY,
  aStoredReview,
  call,
  mockReviewTable,
  NOW,
  OTHER_KEY,
  OWNER_KEY,
  serveBodyConditionResult,
} from './review-fixtures.ts';
import { cancelled, conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { pendingReviewKey, petKey, reviewKey } from '../../../shared/db/keys.ts';

const request = (key = OWNER_KEY, petId = 'pet-1') =>
  call(handler, key, {
    method: 'POST',
    path: `/pets/${petId}/body-condition-score/reviews`,
    pathParameters: { petId },
  });

describe('POST /pets/{petId}/body-condition-score/reviews', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    serveBodyConditionResult(ddb);
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('answers 201 with a pending review of the latest body condition result', async () => {
    const result = await request();

    expect(result.statusCode).toBe(201);
    const {
      account_id: _owner,
      decided_by: _vet,
      ...expected
    } = aStoredReview({
      id: 'rev-new',
      requested_at: NOW.toISOString(),
    });
    expect(jsonBody(result)).toEqual(expected);
  });

  it('writes the review with the pet’s pending marker, on the condition that none exists, in one transaction', async () => {
    await request();

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Refusals on each condition: the 409 and 404 below.
    expect(writeTo(ddb, petKey('pet-1'))).toMatchObject({ check: true, conditional: true });
    expect(writeTo(ddb, pendingReviewKey('pet-1'))).toMatchObject({
      put: { gsi1pk: 'REVIEWS#PENDING', gsi1sk: `${NOW.toISOString()}#rev-new`, review_id: 'rev-new' },
      conditional: true,
    });
    expect(writeTo(ddb, reviewKey('pet-1', 'rev-new')).put).toMatchObject({
      gsi1pk: 'REVIEW#rev-new',
      type: 'BcsReview',
      account_id: 'acc-user',
      status: 'pending',
    });
  });

  it('answers 409 naming the pending review when the pet already has one', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(pendingReviewKey('pet-1')));
    ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'REVIEW_PENDING' } } as never).resolves({
      Item: { review_id: 'rev-earlier' },
    });

    const result = await request();

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ code: 'review_pending', review_id: 'rev-earlier' });
    expect(jsonBody(result).message).toContain('rev-earlier');
  });

  it('tries again when a concurrent transaction on the same items cancelled the write', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'TransactionConflict', 'None'))
      .resolves({});

    expect((await request()).statusCode).toBe(201);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers 400 when the pet has no body condition result yet', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'ANALYSIS_LATEST#body_condition_score#v1' } } as never)
      .resolves({});

    const result = await request();

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).code).toBe('no_body_condition_result');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 404 when the pet is deleted while the review is written', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(petKey('pet-1')));

    expect((await request()).statusCode).toBe(404);
  });

  it('answers 403 for another account’s pet, 404 for an unknown pet, 403 without the feature', async () => {
    expect((await request(OTHER_KEY)).statusCode).toBe(403);
    expect((await request(OWNER_KEY, 'pet-unknown')).statusCode).toBe(404);
    const withoutFeature = await request(ADMIN_KEY);
    expect(withoutFeature.statusCode).toBe(403);
    expect(jsonBody(withoutFeature).code).toBe('feature_not_enabled');
  });
});
