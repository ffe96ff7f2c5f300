import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-body-condition-score.ts';
import { MAX_REASONING_LENGTH } from '../../../shared/domain/analysis/kinds.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  aBodyConditionAnswer,
  aLatestResult,
  analyse,
  analysisRows,
  itBehavesLikeEveryAnalysis,
  serveAnalysisData,
  useFakeVision,
} from './analysis-fixtures.ts';

const vision = useFakeVision();
const WITH_FEATURE = { features: ['body_condition'] };
const scoreBody = (query?: Record<string, string>) => analyse(handler, 'body-condition-score', query && { query });

describe('POST /v1/pets/{petId}/body-condition-score', () => {
  it('answers 403 naming the body_condition feature for an account without it, before reading the pet', async () => {
    const { ddb } = serveAnalysisData({ features: [] });

    const result = await scoreBody();

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 403,
      code: 'feature_not_enabled',
      feature: 'body_condition',
      message: expect.stringContaining('body_condition'),
    });
    expect(vision.calls).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('answers the WSAVA score on the 9-point scale with its computed category, explanation and advice', async () => {
    serveAnalysisData(WITH_FEATURE);
    vision.answers('body_condition_score', aBodyConditionAnswer(8));

    const result = await scoreBody();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      type: 'body_condition_score',
      prompt_version: 'v1',
      score: 8,
      scale: 9,
      category: 'obese',
      confidence: 0.8,
      explanation: 'Ribs hard to feel, no waist',
      recommendations: ['Weigh the food', 'Walk twice a day'],
      season: null,
      country: null,
      cached: false,
    });
    expect(jsonBody(result)).not.toHaveProperty('comparison');
  });

  it.each([
    [1, 'underweight'],
    [3, 'underweight'],
    [4, 'ideal'],
    [5, 'ideal'],
    [6, 'overweight'],
    [7, 'overweight'],
    [9, 'obese'],
  ])('computes the category of score %i: %s', async (score, category) => {
    serveAnalysisData(WITH_FEATURE);
    vision.answers('body_condition_score', aBodyConditionAnswer(score));

    expect(jsonBody(await scoreBody()).category).toBe(category);
  });

  it('passes season and country to the model and the result, and asks again when they change', async () => {
    serveAnalysisData(WITH_FEATURE);

    const winter = jsonBody(await scoreBody({ season: 'Winter', country: 'at' }));
    const summer = jsonBody(await scoreBody({ season: 'summer', country: 'AT' }));
    const winterAgain = jsonBody(await scoreBody({ season: 'winter', country: 'AT' }));

    expect(winter).toMatchObject({ season: 'winter', country: 'AT', cached: false });
    expect(summer).toMatchObject({ season: 'summer', cached: false });
    expect(winterAgain).toMatchObject({ id: winter.id, cached: true });
    expect(vision.calls).toHaveLength(2);
    expect(vision.calls[0]!.prompt).toContain('Season: winter');
    expect(vision.calls[0]!.prompt).toContain('Country: AT');
  });

  it('compare_version adds the latest stored result of that prompt version, or null when there is none', async () => {
    serveAnalysisData({
      ...WITH_FEATURE,
      items: [aLatestResult('body_condition_score', 'bcs-earlier', aBodyConditionAnswer(7), 'v0')],
    });
    vision.answers('body_condition_score', aBodyConditionAnswer(5));

    const withEarlier = jsonBody(await scoreBody({ compare_version: 'v0' }));
    const withoutEarlier = jsonBody(await scoreBody({ compare_version: 'v7' }));

    expect(withEarlier).toMatchObject({ prompt_version: 'v1', score: 5, category: 'ideal' });
    expect(withEarlier.comparison).toMatchObject({
      prompt_version: 'v0',
      result: { id: 'bcs-earlier', score: 7, category: 'overweight', cached: true },
    });
    expect(withoutEarlier.comparison).toBeNull();
  });

  it('keeps the new score as the latest body condition result, which weight estimates and tips read', async () => {
    const { table } = serveAnalysisData({
      ...WITH_FEATURE,
      items: [aLatestResult('body_condition_score', 'bcs-earlier', aBodyConditionAnswer(7))],
    });
    vision.answers('body_condition_score', aBodyConditionAnswer(4));

    const body = jsonBody(await scoreBody());

    const latest = analysisRows(table).find((row) => row.sk === 'ANALYSIS_LATEST#body_condition_score#v1');
    expect(latest!.result).toMatchObject({ id: body.id, answer: { score: 4 } });
  });

  it('cuts a model explanation longer than 1,200 characters to 1,200 (ending in …) before storing it, asking once', async () => {
    const { table } = serveAnalysisData(WITH_FEATURE);
    const long = 'Ribs hard to feel under a thick fat cover, no waist from above. '.repeat(25);
    vision.answers('body_condition_score', { ...aBodyConditionAnswer(8), explanation: long });

    const result = await scoreBody();

    expect(result.statusCode).toBe(200);
    const { explanation } = jsonBody(result);
    expect(explanation).toHaveLength(MAX_REASONING_LENGTH);
    expect(explanation).toBe(`${long.slice(0, MAX_REASONING_LENGTH - 1)}…`);
    const latest = analysisRows(table).find((row) => row.sk === 'ANALYSIS_LATEST#body_condition_score#v1');
    expect(latest!.result.answer.explanation).toBe(explanation);
    expect(vision.calls).toHaveLength(1);
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'body-condition-score',
      status: 200,
      serve: WITH_FEATURE,
      badQueries: [
        [{ season: 'monsoon' }, 'season must be one of: winter, spring, summer, autumn'],
        [{ country: 'AUT' }, 'country must be an ISO 3166-1 alpha-2 country code'],
        [{ compare_version: 'latest' }, 'compare_version must name a prompt version such as v1'],
        [{ lang: 'xx' }, 'lang is not supported; use one of: en, en-gb, de, es, fr, pl, uk'],
      ],
    },
    vision,
  );
});
