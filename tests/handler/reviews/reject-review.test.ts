import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/reject-review.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockReviewTable, OWNER_KEY, serveReview, VET_KEY } from './review-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { petRecordKey, reviewKey } from '../../../shared/db/keys.ts';
import { writeTo } from '../../support/dynamo-writes.ts';

const reject = (body: unknown, key = VET_KEY) =>
  call(handler, key, { method: 'POST', path: '/reviews/rev-1/reject', pathParameters: { id: 'rev-1' }, body });

describe('POST /reviews/{id}/reject', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    serveReview(ddb);
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('rejects a pending review with the reason and no score', async () => {
    const result = await reject({ reason: 'The photos do not show the waist' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      status: 'rejected',
      reason: 'The photos do not show the waist',
      score: null,
      category: null,
      notes: null,
    });
  });

  it('keeps the rejection as a record of the pet; photos of an analysis without a record have no hash', async () => {
    await reject({ reason: 'Too dark' });

    expect(writeTo(ddb, petRecordKey('pet-1', 'rev-new')).put?.record).toMatchObject({
      type: 'bcs_review',
      result: { review_id: 'rev-1', status: 'rejected', reason: 'Too dark', score: null },
      inputs: [
        { kind: 'analysis', id: 'an-1', sha256: null },
        { kind: 'photo', id: 'ph-1', sha256: null },
      ],
      vet: { account_id: 'acc-vet', decision: 'rejected' },
    });
  });

  it('answers 409 when the review is already completed', async () => {
    serveReview(ddb, { status: 'completed', score: 5 });
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(reviewKey('pet-1', 'rev-1')));

    const result = await reject({ reason: 'Too dark' });

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result).status).toBe('completed');
  });

  it('answers 400 without a reason, with an empty or over-long one; 403 to a non-vet', async () => {
    for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(1001) }, { reason: 'a\u0000b' }])
      expect((await reject(body)).statusCode).toBe(400);
    expect((await reject({ reason: 'Too dark' }, OWNER_KEY)).statusCode).toBe(403);
  });
});
