import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/list-pet-reviews.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredReview, call, mockReviewTable, OTHER_KEY, OWNER_KEY, reviewItem } from './review-fixtures.ts';

const list = (query: Record<string, string> = {}, key = OWNER_KEY) =>
  call(handler, key, {
    path: '/pets/pet-1/body-condition-score/reviews',
    pathParameters: { petId: 'pet-1' },
    query,
  });

describe('GET /pets/{petId}/body-condition-score/reviews', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    ddb.on(QueryCommand).resolves({
      Items: [
        reviewItem(aStoredReview({ id: 'rev-1', status: 'rejected', reason: 'Too dark', decided_by: 'acc-vet' })),
        reviewItem(aStoredReview({ id: 'rev-2' })),
      ],
    });
  });

  it('lists the pet’s reviews oldest first from its partition, with the total in Pagination-Count', async () => {
    const result = await list();

    expect(result.statusCode).toBe(200);
    expect(result.headers['pagination-count']).toBe('2');
    const body = jsonBody(result);
    expect(body.map((r: { id: string }) => r.id)).toEqual(['rev-1', 'rev-2']);
    expect(body[0]).toMatchObject({ status: 'rejected', reason: 'Too dark' });
    expect(body[0]).not.toHaveProperty('decided_by');
    // The pet's partition, its reviews only.
    const [query] = ddb.commandCalls(QueryCommand);
    expect(Object.values(query!.args[0].input.ExpressionAttributeValues!)).toEqual(['PET#pet-1', 'REVIEW#']);
  });

  it('pages and orders: newest first with order=DESC, limit and page as every page-style list', async () => {
    const body = jsonBody(await list({ order: 'desc', limit: '1', page: '1' }));

    expect(body.map((r: { id: string }) => r.id)).toEqual(['rev-1']);
  });

  it('answers 400 for an unknown parameter or a limit past 100, 403 for another account’s pet', async () => {
    expect((await list({ status: 'pending' })).statusCode).toBe(400);
    expect((await list({ limit: '101' })).statusCode).toBe(400);
    expect((await list({}, OTHER_KEY)).statusCode).toBe(403);
  });
});
