import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-genealogy.ts';
import { jsonBody } from '../../support/http-event.ts';
import { analyse, itBehavesLikeEveryAnalysis, serveAnalysisData, useFakeVision } from './analysis-fixtures.ts';

const vision = useFakeVision();
const genealogy = (query?: Record<string, string>) => analyse(handler, 'genealogy', query && { query });
const aMix = (breeds: { name: string; percentage: number }[]) => ({
  is_mixed_breed: breeds.length > 1,
  breeds,
  predicted_age_months: 30,
  predicted_sex: 'female',
  confidence: 0.6,
  description: 'A sturdy, tan dog with a dark saddle',
});

describe('POST /v1/pets/{petId}/genealogy', () => {
  it("matches the model's breed names to catalogue ids and scales the shares to 100 by largest remainder", async () => {
    serveAnalysisData();
    // 50 : 30 : 10 of 90 is 55.6 : 33.3 : 11.1; the largest remainder takes the spare point.
    vision.answers(
      'genealogy',
      aMix([
        { name: 'german shepherd', percentage: 50 },
        { name: 'Labrador', percentage: 30 },
        { name: 'Carpathian Mystery Hound', percentage: 10 },
      ]),
    );

    const result = await genealogy();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      type: 'genealogy',
      is_mixed_breed: true,
      breeds: [
        { breed_id: 'german-shepherd-dog', name: 'German Shepherd Dog', percentage: 56 },
        { breed_id: 'labrador-retriever', name: 'Labrador Retriever', percentage: 33 },
        { breed_id: null, name: 'Carpathian Mystery Hound', percentage: 11 },
      ],
      predicted_age_months: 30,
      predicted_life_stage: 'adult',
      predicted_sex: 'female',
      confidence: 0.6,
      description: 'A sturdy, tan dog with a dark saddle',
      cached: false,
    });
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

    expect(jsonBody(await genealogy()).breeds).toEqual([
      { breed_id: 'labrador-retriever', name: 'Labrador Retriever', percentage: 80 },
      { breed_id: null, name: 'Siamese', percentage: 20 },
    ]);
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
