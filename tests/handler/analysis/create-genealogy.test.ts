import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-genealogy.ts';
import { jsonBody } from '../../support/http-event.ts';
import { analyse, itBehavesLikeEveryAnalysis, serveAnalysisData, useFakeVision } from './analysis-fixtures.ts';

const vision = useFakeVision();
const genealogy = (query?: Record<string, string>) => analyse(handler, 'genealogy', query && { query });
const aMix = (breeds: { name: string; percentage: number; confidence?: number }[]) => ({
  is_mixed_breed: breeds.length > 1,
  breeds: breeds.map((b) => ({ confidence: 0.8, ...b })),
  predicted_age_months: 30,
  predicted_sex: 'female',
  confidence: 0.6,
  description: 'A sturdy, tan dog with a dark saddle',
});

describe('POST /v1/pets/{petId}/genealogy', () => {
  it("matches the model's breed names to catalogue ids; unknown names, low-confidence breeds and what it left out stay unresolved", async () => {
    serveAnalysisData();
    // 50 + 20 + 10 + what the model left out (20): nothing is scaled up to 100.
    vision.answers(
      'genealogy',
      aMix([
        { name: 'german shepherd', percentage: 50 },
        { name: 'Labrador', percentage: 20, confidence: 0.2 },
        { name: 'Carpathian Mystery Hound', percentage: 10 },
      ]),
    );

    const result = await genealogy({ lang: 'de' });

    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      type: 'genealogy',
      prompt_version: 'v2',
      is_mixed_breed: true,
      breeds: [{ breed_id: 'german-shepherd-dog', name: 'German Shepherd Dog', percentage: 50, confidence: 0.8 }],
      unresolved: 50,
      unresolved_breeds: [
        { name: 'Labrador Retriever', percentage: 20, confidence: 0.2, reason: 'low_confidence' },
        { name: 'Carpathian Mystery Hound', percentage: 10, confidence: 0.8, reason: 'not_in_catalogue' },
      ],
      predicted_age_months: 30,
      predicted_life_stage: 'adult',
      predicted_sex: 'female',
      confidence: 0.6,
      description: 'A sturdy, tan dog with a dark saddle',
      cached: false,
      validation: expect.stringContaining('docs/analysis.md#validation'),
    });
    expect(body.disclaimer).toMatch(/keine tierärztliche Diagnose/);
  });

  it("matches only breeds of the pet's species, and lists the breeds by share", async () => {
    serveAnalysisData();
    vision.answers(
      'genealogy',
      aMix([
        { name: 'Siamese', percentage: 20 },
        { name: 'Labrador Retriever', percentage: 80 },
      ]),
    );

    const body = jsonBody(await genealogy());
    expect(body.breeds).toEqual([
      { breed_id: 'labrador-retriever', name: 'Labrador Retriever', percentage: 80, confidence: 0.8 },
    ]);
    expect(body).toMatchObject({
      unresolved: 20,
      unresolved_breeds: [{ name: 'Siamese', reason: 'not_in_catalogue' }],
    });
  });

  it('predicts a puppy for a predicted age under a year', async () => {
    serveAnalysisData();
    vision.answers('genealogy', { ...aMix([{ name: 'Labrador', percentage: 100 }]), predicted_age_months: 5 });

    expect(jsonBody(await genealogy())).toMatchObject({ is_mixed_breed: false, predicted_life_stage: 'puppy' });
  });

  it('asks once more when the answer breaks the schema, and answers 503 invalid_answer when it does so twice', async () => {
    serveAnalysisData();
    vision.answers('genealogy', aMix([{ name: 'Labrador', percentage: 0 }]), 1);

    const retried = await genealogy();

    expect(retried.statusCode).toBe(200);
    expect(vision.calls).toHaveLength(2);

    vision.misbehaves('schema_invalid', 2);
    const failed = await genealogy({ lang: 'fr' });

    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBe('30');
    expect(jsonBody(failed)).toMatchObject({ code: 'analysis_unavailable', reason: 'invalid_answer' });
    expect(vision.calls).toHaveLength(4);
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'genealogy',
      status: 200,
      badQueries: [[{ breed_id: 'beagle' }, "unknown query parameter 'breed_id'"]],
    },
    vision,
  );
});
