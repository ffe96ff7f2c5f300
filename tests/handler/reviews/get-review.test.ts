import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/get-review.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredReview, call, mockReviewTable, OWNER_KEY, reviewItem, VET_KEY } from './review-fixtures.ts';

const get = (id: string, key = VET_KEY) => call(handler, key, { path: `/reviews/${id}`, pathParameters: { id } });

describe('GET /reviews/{id}', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':id': 'REVIEW#rev-1' } } as never)
      .resolves({ Items: [reviewItem(aStoredReview())] });
  });

  it('finds the review by id alone through gsi1 and answers it without the accounts involved', async () => {
    const result = await get('rev-1');

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body).toMatchObject({ id: 'rev-1', pet_id: 'pet-1', status: 'pending', analysis: { score: 7 } });
    expect(body).not.toHaveProperty('account_id');
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.IndexName).toBe('gsi1');
  });

  it('answers 404 for an unknown review and 403 to a non-vet', async () => {
    expect((await get('rev-unknown')).statusCode).toBe(404);
    expect((await get('rev-1', OWNER_KEY)).statusCode).toBe(403);
  });
});
