import { BatchGetCommand, type BatchGetCommandInput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { petKey } from '../../../shared/db/keys.ts';
import { aStoredPet } from '../pets/pet-fixtures.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/list-reviews.ts';
import { jsonBody } from '../../support/http-event.ts';
import { ADMIN_KEY, aStoredReview, call, mockReviewTable, OWNER_KEY, reviewItem, VET_KEY } from './review-fixtures.ts';

const queue = (query: Record<string, string> = { status: 'pending' }, key = VET_KEY) =>
  call(handler, key, { path: '/reviews', query });

const marker = (petId: string, reviewId: string, requestedAt: string) => ({
  pk: `PET#${petId}`,
  sk: 'REVIEW_PENDING',
  gsi1pk: 'REVIEWS#PENDING',
  gsi1sk: `${requestedAt}#${reviewId}`,
  review_id: reviewId,
  pet_id: petId,
});

describe('GET /reviews?status=pending', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    ddb.on(QueryCommand).resolves({
      Items: [
        marker('pet-2', 'rev-old', '2026-11-24T08:00:00.000Z'),
        marker('pet-1', 'rev-new', '2026-11-24T09:00:00.000Z'),
        marker('pet-3', 'rev-decided', '2026-11-24T09:30:00.000Z'),
      ],
    });
    // BatchGetItem answers in any order; one review was decided between the two reads.
    serveBatch([
      reviewItem(aStoredReview({ id: 'rev-new' })),
      reviewItem(aStoredReview({ id: 'rev-decided', pet_id: 'pet-3', status: 'completed', score: 5 })),
      reviewItem(aStoredReview({ id: 'rev-old', pet_id: 'pet-2', account_id: 'acc-other' })),
    ]);
  });

  /** BatchGetItem answers the reviews and pets asked for from these (by default pet-1 Bella and pet-2 Rex). */
  function serveBatch(
    reviews: Record<string, unknown>[],
    pets = [aStoredPet({ id: 'pet-1', name: 'Bella' }), aStoredPet({ id: 'pet-2', name: 'Rex', species_id: 'cat' })],
  ) {
    const stored = [...reviews, ...pets.map((pet) => ({ ...petKey(pet.id), ...pet }))];
    ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
      const keys = input.RequestItems!['test-table']!.Keys!;
      const found = stored.filter((item) => keys.some((k) => k.pk === item.pk && k.sk === item.sk));
      return { Responses: { 'test-table': found } };
    });
  }

  it("names each review's pet, from one BatchGetItem of the page's pets", async () => {
    const result = await queue();

    expect(jsonBody(result).map((r: { pet: unknown }) => r.pet)).toEqual([
      { name: 'Rex', species_id: 'cat' },
      { name: 'Bella', species_id: 'dog' },
    ]);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('answers pet null for a review whose pet went while the page was read', async () => {
    serveBatch([reviewItem(aStoredReview({ id: 'rev-old', pet_id: 'pet-2' }))], []);

    expect(jsonBody(await queue())).toMatchObject([{ id: 'rev-old', pet: null }]);
  });

  it('gives vets every account’s pending reviews, oldest request first, from the pending index (no Scan)', async () => {
    const result = await queue();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).map((r: { id: string }) => r.id)).toEqual(['rev-old', 'rev-new']);
    const [query] = ddb.commandCalls(QueryCommand);
    expect(query!.args[0].input).toMatchObject({ IndexName: 'gsi1', Limit: 10 });
    expect(Object.values(query!.args[0].input.ExpressionAttributeValues!)).toEqual(['REVIEWS#PENDING']);
  });

  it('gives each review’s model reasoning; null for a review requested before reviews kept it', async () => {
    const { explanation: _none, ...olderSnapshot } = aStoredReview().analysis;
    serveBatch([
      reviewItem(aStoredReview({ id: 'rev-new' })),
      reviewItem(aStoredReview({ id: 'rev-old', pet_id: 'pet-2', analysis: olderSnapshot as never })),
    ]);

    const result = await queue();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).map((r: { analysis: { explanation: string | null } }) => r.analysis.explanation)).toEqual([
      null,
      'Waist barely visible',
    ]);
  });

  it('reads no further than the page asked for', async () => {
    const result = await queue({ status: 'pending', limit: '1', page: '1' });

    expect(jsonBody(result).map((r: { id: string }) => r.id)).toEqual(['rev-new']);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.Limit).toBe(2);
  });

  it('lets administrators act as vets; answers 403 vet_only to anyone else', async () => {
    expect((await queue(undefined, ADMIN_KEY)).statusCode).toBe(200);
    const refused = await queue(undefined, OWNER_KEY);
    expect(refused.statusCode).toBe(403);
    expect(jsonBody(refused).code).toBe('vet_only');
  });

  it('answers 400 for any status but pending (decided reviews are read by id or per pet)', async () => {
    const result = await queue({ status: 'completed' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual(['status must be one of: pending']);
  });
});
