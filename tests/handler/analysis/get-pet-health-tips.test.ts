import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/get-pet-health-tips.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aTip } from '../../support/reference-fixtures.ts';
import { aStoredPet } from '../pets/pet-fixtures.ts';
import {
  aBodyConditionAnswer,
  aLatestResult,
  analyse,
  itBehavesLikeEveryAnalysis,
  MODEL_ID,
  NOW,
  serveAnalysisData,
  useFakeVision,
} from './analysis-fixtures.ts';

const vision = useFakeVision();
const healthTips = (query?: Record<string, string>) =>
  analyse(handler, 'health-tips', { method: 'GET', ...(query && { query }) });

/** The catalogue's dog and cat tips: one for Rex's breed, one for another breed, general ones by life stage. */
const TIPS = [
  aTip({ id: 'gsd-hips', breed_id: 'german-shepherd-dog', category: 'exercise' }),
  aTip({ id: 'lab-coat', breed_id: 'labrador-retriever', category: 'grooming' }),
  aTip({ id: 'dog-senior', life_stage: 'senior', category: 'preventative_care' }),
  aTip({ id: 'dog-young', life_stage: 'young' }),
  aTip({ id: 'dog-any', category: 'behaviour' }),
  aTip({ id: 'cat-only', species_id: 'cat' }),
];
/** Earlier results of Rex: obese, mild muscle loss, a pure German Shepherd. */
const EARLIER = [
  aLatestResult('body_condition_score', 'bcs-1', aBodyConditionAnswer(8)),
  aLatestResult('muscle_condition_score', 'mcs-1', {
    muscle_condition: 'mild_loss',
    confidence: 0.7,
    explanation: 'x',
    recommendations: ['y'],
  }),
  aLatestResult('genealogy', 'gen-1', {
    is_mixed_breed: false,
    breeds: [{ name: 'German Shepherd', percentage: 100, confidence: 0.9 }],
    predicted_age_months: 120,
    predicted_sex: 'male',
    confidence: 0.8,
    description: 'x',
  }),
];
const TWO_TIPS = {
  tips: [
    { category: 'nutrition', title: 'Fewer treats', tip: 'Cut treats to a tenth of the calories.' },
    { category: 'exercise', title: 'Short walks', tip: 'Three short walks beat one long one.' },
  ],
};
const origins = (body: { items: { origin: string; id: string }[] }) => body.items.map((t) => [t.origin, t.id]);

describe('GET /v1/pets/{petId}/health-tips', () => {
  it("blends the breed's seeded tips, then its species' tips for the pet's life stage, with the model's tips", async () => {
    serveAnalysisData({ tips: TIPS });
    vision.answers('health_tips', TWO_TIPS);

    const result = await healthTips();

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(origins(body)).toEqual([
      ['seeded', 'gsd-hips'],
      ['seeded', 'dog-senior'],
      ['seeded', 'dog-any'],
      ['generated', 'id-2-1'],
      ['generated', 'id-2-2'],
    ]);
    expect(body.items[3]).toEqual({
      id: 'id-2-1',
      origin: 'generated',
      category: 'nutrition',
      title: 'Fewer treats',
      tip: 'Cut treats to a tenth of the calories.',
      lang: 'en',
    });
    expect(body.items[0]).not.toHaveProperty('sources');
    expect(body).toMatchObject({
      pet_id: 'pet-1',
      lang: 'en',
      generated: {
        id: 'id-2',
        prompt_version: 'v1',
        model: { provider: 'fake', id: MODEL_ID },
        image_ids: ['img-04', 'img-03', 'img-02', 'img-01'],
        cached: false,
      },
      based_on: [],
      created_at: NOW.toISOString(),
    });
  });

  it('builds on the latest genealogy, body and muscle results: named in the prompt and in based_on', async () => {
    serveAnalysisData({ items: EARLIER });

    const body = jsonBody(await healthTips());

    expect(body.based_on).toEqual(['gen-1', 'bcs-1', 'mcs-1']);
    const { prompt } = vision.calls[0]!;
    expect(prompt).toContain('Earlier genealogy result: German Shepherd 100%');
    expect(prompt).toContain('Earlier body condition score result: score 8 of 9 (obese)');
    expect(prompt).toContain('Earlier muscle condition score result: mild loss');
  });

  it('writes new tips once a newer earlier result exists, and serves the stored ones until then', async () => {
    const { table } = serveAnalysisData({ items: EARLIER });

    const first = jsonBody(await healthTips());
    const repeat = jsonBody(await healthTips());
    const newer = aLatestResult('body_condition_score', 'bcs-2', aBodyConditionAnswer(6));
    table.set(`${newer.pk}|${newer.sk}`, newer);
    const afterNewScore = jsonBody(await healthTips());

    expect([first, repeat, afterNewScore].map((b) => b.generated.cached)).toEqual([false, true, false]);
    expect(afterNewScore.based_on).toEqual(['gen-1', 'bcs-2', 'mcs-1']);
    expect(vision.calls).toHaveLength(2);
  });

  it('leaves out the seeded tips with include_seeded=false and adds their sources with include_sources=true', async () => {
    serveAnalysisData({ tips: TIPS });

    const generatedOnly = jsonBody(await healthTips({ include_seeded: 'false' }));
    const withSources = jsonBody(await healthTips({ include_sources: 'true' }));

    expect(generatedOnly.items.map((t: { origin: string }) => t.origin)).toEqual(['generated']);
    expect(withSources.items[0]).toMatchObject({
      id: 'gsd-hips',
      sources: [{ url: 'https://example.org/gsd-hips', name: 'Example' }],
    });
  });

  it("seeds a young dog's tips for young dogs, not for seniors", async () => {
    serveAnalysisData({ tips: TIPS, pet: aStoredPet({ id: 'pet-1', birth_date: '2026-06' }) });

    const body = jsonBody(await healthTips({ include_seeded: 'true' }));

    expect(origins(body).filter(([origin]) => origin === 'seeded')).toEqual([
      ['seeded', 'dog-young'],
      ['seeded', 'dog-any'],
    ]);
  });

  describe('without a configured vision model', () => {
    it('answers the seeded tips plus tips derived from the stored results by fixed rules, in English', async () => {
      serveAnalysisData({ tips: TIPS, items: EARLIER });
      vision.withoutProvider();

      const body = jsonBody(await healthTips({ lang: 'de' }));

      expect(origins(body)).toEqual([
        ['seeded', 'gsd-hips'],
        ['seeded', 'dog-senior'],
        ['seeded', 'dog-any'],
        ['rule', 'rule-weight-management'],
        ['rule', 'rule-muscle-loss'],
        ['rule', 'rule-senior-checkups'],
      ]);
      expect(body.items[3]).toMatchObject({ lang: 'en', tip: expect.stringContaining('score was 8 of 9') });
      expect(body).toMatchObject({ lang: 'de', generated: null, based_on: ['gen-1', 'bcs-1', 'mcs-1'] });
      expect(vision.calls).toHaveLength(0);
    });

    it('advises a vet check for a low score and vaccinations for a puppy', async () => {
      serveAnalysisData({
        pet: aStoredPet({ id: 'pet-1', birth_date: '2026-06' }),
        items: [aLatestResult('body_condition_score', 'bcs-1', aBodyConditionAnswer(2))],
      });
      vision.withoutProvider();

      expect(origins(jsonBody(await healthTips()))).toEqual([
        ['rule', 'rule-underweight-check'],
        ['rule', 'rule-young-vaccinations'],
      ]);
    });
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'health-tips',
      method: 'GET',
      status: 200,
      cachedOf: (body) => body.generated.cached,
      badQueries: [
        [{ include_seeded: 'maybe' }, 'include_seeded must be true or false'],
        [{ season: 'winter' }, "unknown query parameter 'season'"],
      ],
    },
    vision,
  );
});
