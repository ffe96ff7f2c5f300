import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getCategory } from '../../../functions/categories/get-category.ts';
import { handler as listCategories } from '../../../functions/categories/list-categories.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { serveReferenceData } from '../../support/reference-fixtures.ts';

const categories = [
  { id: 1, name: 'Hats', species_ids: ['dog', 'cat'] as ('dog' | 'cat')[], i18n: { fr: { name: 'Chapeaux' } } },
  { id: 2, name: 'Boxes', species_ids: ['cat'] as ('dog' | 'cat')[] },
  { id: 3, name: 'Puppies', species_ids: ['dog'] as ('dog' | 'cat')[] },
];
const call = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
) => callWithKey(handler, USER_KEY, path, query, pathParameters);
const ids = (result: unknown) => jsonBody(result).map((c: { id: number }) => c.id);

describe('categories', () => {
  beforeEach(() => serveReferenceData(mockDynamoWithAccounts(standardAccounts()), { categories }));

  it('lists by id, pages zero-based and reports the total', async () => {
    const result = await call(listCategories, '/categories', { limit: '2', page: '1' });

    expect(ids(result)).toEqual([3]);
    expect(result.headers['pagination-count']).toBe('3');
  });

  it('orders DESC and filters by species', async () => {
    expect(ids(await call(listCategories, '/categories', { order: 'DESC' }))).toEqual([3, 2, 1]);
    expect(ids(await call(listCategories, '/categories', { species_id: 'cat' }))).toEqual([1, 2]);
  });

  it('gets one category, translated, and 404s a missing one', async () => {
    expect(jsonBody(await call(getCategory, '/categories/1', { lang: 'fr' }, { id: '1' }))).toEqual({
      id: 1,
      name: 'Chapeaux',
      species_ids: ['dog', 'cat'],
    });
    expect((await call(getCategory, '/categories/9', {}, { id: '9' })).statusCode).toBe(404);
  });

  it('rejects an unknown order', async () => {
    expect(jsonBody(await call(listCategories, '/categories', { order: 'sideways' })).message).toEqual([
      'order must be one of: ASC, DESC, RANDOM',
    ]);
  });
});
