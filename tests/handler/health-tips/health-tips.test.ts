import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getTip } from '../../../functions/health-tips/get-health-tip.ts';
import { handler as listBreedTips } from '../../../functions/health-tips/list-breed-health-tips.ts';
import { handler as listTips } from '../../../functions/health-tips/list-health-tips.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aBreed, aTip, serveReferenceData } from '../../support/reference-fixtures.ts';

const tips = [
  aTip({ id: 't1', species_id: null, category: 'dental' }),
  aTip({
    id: 't2',
    species_id: 'cat',
    breed_id: 'persian',
    category: 'grooming',
    i18n: { 'en-gb': { title: 'Grooming the coat', tip: 'Groom the colourful coat' } },
  }),
  aTip({ id: 't3', species_id: 'dog', category: 'exercise' }),
];
const call = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
) => callWithKey(handler, USER_KEY, path, query, pathParameters);
const ids = (result: unknown) => jsonBody(result).map((t: { id: string }) => t.id);

describe('health tips', () => {
  beforeEach(() =>
    serveReferenceData(mockDynamoWithAccounts(standardAccounts()), {
      'health-tips': tips,
      breeds: [aBreed({ id: 'persian', name: 'Persian', species_id: 'cat' })],
    }),
  );

  it('lists categorised tips; a tip for both species matches either', async () => {
    expect(ids(await call(listTips, '/health-tips', { species_id: 'cat' }))).toEqual(['t1', 't2']);
    expect(jsonBody(await call(listTips, '/health-tips', { limit: '1' }))[0]).toEqual({
      id: 't1',
      slug: 't1',
      title: 'Tip title t1',
      tip: 'Tip t1',
      category: 'dental',
      species_id: null,
      breed_id: null,
      life_stage: null,
    });
  });

  it('adds the sources only with include_sources=true', async () => {
    expect(jsonBody(await call(listTips, '/health-tips', { include_sources: 'true', limit: '1' }))[0].sources).toEqual([
      { url: 'https://example.org/t1', name: 'Example' },
    ]);
  });

  it('serves British spelling for en-gb without calling it a fallback', async () => {
    const result = await call(getTip, '/health-tips/t2', { lang: 'en-gb' }, { id: 't2' });

    expect(jsonBody(result).tip).toBe('Groom the colourful coat');
    expect(result.headers['content-language']).toBe('en-gb');
  });

  it("lists a breed's tips and 404s an unknown breed or tip", async () => {
    expect(ids(await call(listBreedTips, '/health-tips/breed/persian', {}, { breedId: 'persian' }))).toEqual(['t2']);
    expect((await call(listBreedTips, '/health-tips/breed/nope', {}, { breedId: 'nope' })).statusCode).toBe(404);
    expect((await call(getTip, '/health-tips/nope', {}, { id: 'nope' })).statusCode).toBe(404);
  });

  it('rejects page-style parameters on this offset-style list', async () => {
    expect(jsonBody(await call(listTips, '/health-tips', { page: '2' })).message).toEqual([
      "unknown query parameter 'page'",
    ]);
  });
});
