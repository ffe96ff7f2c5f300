import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-muscle-condition-score.ts';
import { jsonBody } from '../../support/http-event.ts';
import { analyse, itBehavesLikeEveryAnalysis, serveAnalysisData, useFakeVision } from './analysis-fixtures.ts';

const vision = useFakeVision();
const scoreMuscle = (query?: Record<string, string>) => analyse(handler, 'muscle-condition-score', query && { query });

describe('POST /v1/pets/{petId}/muscle-condition-score', () => {
  it.each([
    ['normal', false],
    ['mild_loss', true],
    ['moderate_loss', true],
    ['severe_loss', true],
  ])('answers the WSAVA grade %s with wasting_risk %s', async (condition, risk) => {
    serveAnalysisData();
    vision.answers('muscle_condition_score', {
      muscle_condition: condition,
      confidence: 0.75,
      explanation: 'Spine and hips',
      recommendations: ['Gentle exercise'],
    });

    const result = await scoreMuscle();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      type: 'muscle_condition_score',
      muscle_condition: condition,
      wasting_risk: risk,
      confidence: 0.75,
      explanation: 'Spine and hips',
      recommendations: ['Gentle exercise'],
    });
  });

  it.each([
    ['throttle', 'throttled', '30'],
    ['refuse', 'refused', '60'],
  ] as const)('answers 503 when the model %ss, saying why and when to retry', async (mode, reason, retryAfter) => {
    serveAnalysisData();
    vision.misbehaves(mode);

    const result = await scoreMuscle();

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe(retryAfter);
    expect(jsonBody(result)).toMatchObject({ code: 'analysis_unavailable', reason });
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'muscle-condition-score',
      status: 200,
      badQueries: [[{ season: 'winter' }, "unknown query parameter 'season'"]],
    },
    vision,
  );
});
