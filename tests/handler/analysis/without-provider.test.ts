// The analysis routes with no vision model configured (ANALYSIS_PROVIDER unset: `none`, the local default).
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as bodyConditionScore } from '../../../functions/analysis/create-body-condition-score.ts';
import { handler as estimatedAge } from '../../../functions/analysis/create-age-estimate.ts';
import { handler as estimatedWeight } from '../../../functions/analysis/create-weight-estimate.ts';
import { handler as healthTips } from '../../../functions/analysis/get-pet-health-tips.ts';
import { anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { aBreed, aTip, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredPet, servePet } from '../pets/pet-fixtures.ts';

const pet = aStoredPet({ id: 'pet-1', breed_ids: ['german-shepherd-dog'], sex: 'male', birth_date: '2016-01' });
const photo = {
  pk: 'PET#pet-1',
  sk: 'MEDIA#img-1',
  type: 'PetMedia',
  id: 'img-1',
  account_id: 'acc-user',
  pet_id: 'pet-1',
  kind: 'photo',
  status: 'ready',
  file: 'pets/photos/acc-user/pet-1/img-1.jpg',
  display_key: 'pets/media/acc-user/pet-1/img-1/display.jpg',
  content_type: 'image/jpeg',
  bytes: 1234,
  sha256: 'a'.repeat(64),
  created_at: '2026-11-02T00:00:00.000Z',
};

const call = (
  handler: (e: any, c: any) => Promise<any>,
  what: string,
  method = 'POST',
  query?: Record<string, string>,
) =>
  handler(
    httpEvent({
      method,
      path: `/v1/pets/pet-1/${what}`,
      headers: { 'x-api-key': USER_KEY },
      pathParameters: { petId: 'pet-1' },
      ...(query && { query }),
    }),
    lambdaContext,
  );

describe('analysis without a configured vision model', () => {
  beforeEach(() => {
    const ddb = mockDynamoWithAccounts([{ apiKey: USER_KEY, account: anAccount({ features: [] }) }]);
    serveReferenceData(ddb, {
      breeds: [
        aBreed({
          id: 'german-shepherd-dog',
          name: 'German Shepherd Dog',
          weight: { imperial: { min: 50, max: 90 }, metric: { min: 23, max: 41 } },
        }),
      ],
      'health-tips': [
        aTip({ id: 'gsd-hips', breed_id: 'german-shepherd-dog', category: 'exercise' }),
        aTip({ id: 'dog-senior', life_stage: 'senior', category: 'preventative_care' }),
        aTip({ id: 'dog-young', life_stage: 'young' }),
        aTip({ id: 'cat-only', species_id: 'cat' }),
      ],
    });
    servePet(ddb, pet);
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'PET#pet-1', ':media': 'MEDIA#' } } as never)
      .resolves({ Items: [photo] });
    ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'ANALYSIS_LATEST#body_condition_score#v1' } } as never).resolves({
      Item: {
        expiresAt: 4_000_000_000,
        result: {
          id: 'bcs-1',
          type: 'body_condition_score',
          answer: { score: 8, confidence: 0.9, explanation: 'x', recommendations: ['y'] },
        },
      },
    });
  });

  it('503 analysis_unavailable naming the variables that enable a provider, with Retry-After', async () => {
    const result = await call(estimatedAge, 'estimated-age');
    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('300');
    const body = jsonBody(result);
    expect(body).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'analysis_unavailable',
      path: '/v1/pets/pet-1/estimated-age',
    });
    for (const name of ['ANALYSIS_PROVIDER', 'ANALYSIS_BASE_URL', 'ANALYSIS_MODEL'])
      expect(body.message).toContain(name);
  });

  it('estimated weight answers 201 from the breed standard: a male takes the upper half (32–41 kg), × 1.3 for BCS 8', async () => {
    const result = await call(estimatedWeight, 'estimated-weight');
    expect(result.statusCode).toBe(201);
    // 32–41 × (1 + 0.1 × (8 − 5)) = 41.6–53.3, mid 47.45
    expect(jsonBody(result)).toMatchObject({
      type: 'estimated_weight',
      method: 'breed_standard',
      model: null,
      prompt_version: null,
      weight_kg: 47.5,
      weight_range_kg: { min: 41.6, max: 53.3 },
      size_class: 'giant',
      breed_standard_kg: { min: 32, max: 41 },
      body_condition_score: 8,
      image_ids: ['img-1'],
      cached: false,
    });
  });

  it('health tips: seeded tips for the breed and the senior life stage, plus rule tips from the stored results', async () => {
    const body = jsonBody(await call(healthTips, 'health-tips', 'GET'));
    expect(body.generated).toBeNull();
    expect(body.items.map((t: { id: string; origin: string }) => [t.origin, t.id])).toEqual([
      ['seeded', 'gsd-hips'],
      ['seeded', 'dog-senior'],
      ['rule', 'rule-weight-management'],
      ['rule', 'rule-senior-checkups'],
    ]);
    expect(body.based_on).toEqual(['bcs-1']);
  });

  it('403 naming body_condition when the account lacks the feature', async () => {
    const result = await call(bodyConditionScore, 'body-condition-score');
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).message).toContain('body_condition');
  });
});
