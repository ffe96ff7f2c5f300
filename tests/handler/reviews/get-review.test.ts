import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/get-review.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredMedia } from '../pets/pet-fixtures.ts';
import { aStoredReview, call, mockReviewTable, OWNER_KEY, reviewItem, VET_KEY } from './review-fixtures.ts';

// Signing a photo URL needs credentials, never a network call.
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';
process.env.MEDIA_BUCKET = 'media';

const get = (id: string, key = VET_KEY) => call(handler, key, { path: `/reviews/${id}`, pathParameters: { id } });

describe('GET /reviews/{id}', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':id': 'REVIEW#rev-1' } } as never).resolves({
      Items: [reviewItem(aStoredReview({ analysis: { ...aStoredReview().analysis, image_ids: ['ph-1', 'ph-gone'] } }))],
    });
    ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#ph-1' } } as never).resolves({
      Item: aStoredMedia({ thumbnail_key: 'pets/media/acc-user/pet-1/ph-1/thumb.jpg' }),
    });
  });

  it('finds the review by id alone (gsi1) and adds the pet’s profile and the analysed photos, signed', async () => {
    const result = await get('rev-1');

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      id: 'rev-1',
      pet_id: 'pet-1',
      status: 'pending',
      analysis: { score: 7 },
      pet: { name: 'Rex', species_id: 'dog', weight_kg: null },
    });
    expect(body.photos).toHaveLength(1);
    expect(body.photos[0]).toMatchObject({ id: 'ph-1', status: 'ready', url: expect.stringContaining('display.jpg') });
    expect(body.photos[0].url).toContain('X-Amz-Signature=');
    expect(body).not.toHaveProperty('account_id');
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.IndexName).toBe('gsi1');
  });

  it('gives the vet the model’s reasoning stored with the review', async () => {
    expect(jsonBody(await get('rev-1')).analysis).toMatchObject({ score: 7, explanation: 'Waist barely visible' });
  });

  it('answers a review requested before reviews kept the model’s reasoning, with the reasoning null', async () => {
    const { explanation: _none, ...olderSnapshot } = aStoredReview().analysis;
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':id': 'REVIEW#rev-old' } } as never).resolves({
      Items: [reviewItem(aStoredReview({ id: 'rev-old', analysis: olderSnapshot as never }))],
    });

    const result = await get('rev-old');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).analysis).toEqual({ ...olderSnapshot, explanation: null });
  });

  it('answers 404 for an unknown review and 403 to a non-vet', async () => {
    expect((await get('rev-unknown')).statusCode).toBe(404);
    expect((await get('rev-1', OWNER_KEY)).statusCode).toBe(403);
  });
});
