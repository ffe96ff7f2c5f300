import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-weight-estimate.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredPet } from '../pets/pet-fixtures.ts';
import {
  aBodyConditionAnswer,
  aLatestResult,
  analyse,
  itBehavesLikeEveryAnalysis,
  serveAnalysisData,
  useFakeVision,
} from './analysis-fixtures.ts';

const vision = useFakeVision();
const estimateWeight = (query?: Record<string, string>) => analyse(handler, 'estimated-weight', query && { query });
/** The model's estimate of docs/analysis.md's worked example: 30 kg (28–34) at confidence 0.6. */
const THIRTY_KG = { weight_kg: 30, weight_range_kg: { min: 28, max: 34 }, confidence: 0.6, reasons: 'Build and size' };
const latestScore = (score: number) => aLatestResult('body_condition_score', 'bcs-1', aBodyConditionAnswer(score));

describe('POST /v1/pets/{petId}/estimated-weight', () => {
  it("answers 201 mixing the model's estimate with the male half of the breed standard (the worked example)", async () => {
    serveAnalysisData();
    vision.answers('estimated_weight', THIRTY_KG);

    const result = await estimateWeight();

    // Standard 23–41 kg, male half 32–41; 0.6 × 30 + 0.4 × 36.5 = 32.6, range 0.6 × 28 + 0.4 × 32 … 0.6 × 34 + 0.4 × 41.
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({
      type: 'estimated_weight',
      method: 'model_and_breed_standard',
      weight_kg: 32.6,
      weight_range_kg: { min: 29.6, max: 36.8 },
      size_class: 'large',
      breed_standard_kg: { min: 32, max: 41 },
      body_condition_score: null,
      model_weight: 30,
      confidence: 0.6,
      reasons: 'Build and size',
      cached: false,
    });
  });

  it('units=imperial adds every weight in pounds, to 0.1 lb, the unit in each field name; other units are a 400', async () => {
    serveAnalysisData();
    vision.answers('estimated_weight', THIRTY_KG);

    const result = await estimateWeight({ units: 'imperial' });

    // 32.6 kg / 0.45359237 = 71.87 lb; range 29.6–36.8 kg, standard 32–41 kg, model 30 kg.
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({
      units: 'imperial',
      weight_kg: 32.6,
      weight_lb: 71.9,
      weight_range_lb: { min: 65.3, max: 81.1 },
      breed_standard_lb: { min: 70.5, max: 90.4 },
      model_weight_lb: 66.1,
    });
    expect(jsonBody(await estimateWeight())).not.toHaveProperty('weight_lb');
    const bad = await estimateWeight({ units: 'pounds' });
    expect(bad.statusCode).toBe(400);
  });

  it('scales the breed standard by the latest body condition score, ~10 % a point away from 5', async () => {
    serveAnalysisData({ items: [latestScore(7)] });
    vision.answers('estimated_weight', THIRTY_KG);

    // Prior 32–41 × 1.2 = 38.4–49.2, mid 43.8: 0.6 × 30 + 0.4 × 43.8 = 35.5.
    expect(jsonBody(await estimateWeight())).toMatchObject({ weight_kg: 35.5, body_condition_score: 7 });
  });

  it('never lets a confident model ignore the breed standard: confidence counts at most 0.8', async () => {
    serveAnalysisData();
    vision.answers('estimated_weight', { ...THIRTY_KG, confidence: 0.99 });

    // 0.8 × 30 + 0.2 × 36.5 = 31.3
    expect(jsonBody(await estimateWeight())).toMatchObject({ weight_kg: 31.3, confidence: 0.99 });
  });

  it('takes the model alone for a pet without a breed standard, and the female half for a female', async () => {
    serveAnalysisData({ pet: aStoredPet({ id: 'pet-1', breed_ids: [], sex: 'female' }) });
    vision.answers('estimated_weight', { ...THIRTY_KG, weight_kg: 4.2, weight_range_kg: { min: 3.8, max: 4.6 } });

    expect(jsonBody(await estimateWeight())).toMatchObject({
      method: 'model',
      weight_kg: 4.2,
      weight_range_kg: { min: 3.8, max: 4.6 },
      size_class: 'toy',
      breed_standard_kg: null,
    });
  });

  it('keeps season and country in the prompt and the result', async () => {
    serveAnalysisData();

    const body = jsonBody(await estimateWeight({ season: 'autumn', country: 'pl' }));

    expect(body).toMatchObject({ season: 'autumn', country: 'PL' });
    expect(vision.calls[0]!.prompt).toContain('Season: autumn');
    expect(vision.calls[0]!.prompt).toContain('Country: PL');
  });

  describe('without a configured vision model', () => {
    it('still answers 201 from the breed standard and the latest score alone, storing nothing', async () => {
      const { table } = serveAnalysisData({ items: [latestScore(8)] });
      vision.withoutProvider();

      const result = await estimateWeight();

      // 32–41 × (1 + 0.1 × (8 − 5)) = 41.6–53.3, mid 47.45
      expect(result.statusCode).toBe(201);
      expect(jsonBody(result)).toMatchObject({
        method: 'breed_standard',
        model: null,
        prompt_version: null,
        weight_kg: 47.5,
        weight_range_kg: { min: 41.6, max: 53.3 },
        size_class: 'giant',
        breed_standard_kg: { min: 32, max: 41 },
        body_condition_score: 8,
        model_weight: null,
        confidence: null,
        image_ids: ['img-04', 'img-03', 'img-02', 'img-01'],
        cached: false,
      });
      expect([...table.keys()].filter((key) => key.includes('estimated_weight'))).toEqual([]);
    });

    it('answers 503 for a pet without a breed standard: there is nothing to estimate from', async () => {
      serveAnalysisData({ pet: aStoredPet({ id: 'pet-1', breed_ids: [] }) });
      vision.withoutProvider();

      const result = await estimateWeight();

      expect(result.statusCode).toBe(503);
      expect(jsonBody(result)).toMatchObject({ code: 'analysis_unavailable', reason: 'not_configured' });
    });
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'estimated-weight',
      status: 201,
      badQueries: [
        [{ season: 'rainy' }, 'season must be one of: winter, spring, summer, autumn'],
        [{ country: 'D' }, 'country must be an ISO 3166-1 alpha-2 country code'],
        [{ compare_version: 'v1' }, "unknown query parameter 'compare_version'"],
      ],
    },
    vision,
  );
});
