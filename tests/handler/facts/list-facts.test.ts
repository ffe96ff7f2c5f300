import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/list-facts.ts';
import { jsonBody } from '../../support/http-event.ts';
import { factIds, getWithKey, serveFacts } from './facts-fixtures.ts';

const list = (query?: Record<string, string>) => getWithKey(handler, '/facts', query);

describe('GET /v1/facts', () => {
  beforeEach(() => serveFacts());

  it('lists the first 10 facts by default, without sources, in English', async () => {
    const result = await list();

    expect(result.statusCode).toBe(200);
    expect(factIds(result)).toEqual(['f00', 'f01', 'f02', 'f03', 'f04', 'f05', 'f06', 'f07', 'f08', 'f09']);
    expect(jsonBody(result)[0]).toEqual({
      id: 'f00',
      slug: 'f00',
      title: 'Title f00',
      fact: 'Fact f00',
      species_id: 'dog',
      breed_id: 'beagle',
      category: 'anatomy',
    });
    expect(result.headers['content-language']).toBe('en');
  });

  it('skips `offset` records and returns at most `limit`', async () => {
    expect(factIds(await list({ offset: '20', limit: '10' }))).toEqual(['f20', 'f21', 'f22', 'f23', 'f24']);
    expect(factIds(await list({ offset: '25' }))).toEqual([]);
  });

  it('adds source URL and name only with include_sources=true', async () => {
    const [fact] = jsonBody(await list({ include_sources: 'true', limit: '1' }));

    expect(fact).toMatchObject({ source_url: 'https://example.org/f00', source_name: 'Example' });
  });

  it('filters by breed, species and case-insensitive category together', async () => {
    expect(factIds(await list({ species_id: 'cat', category: 'ANATOMY' }))).toEqual(['f05', 'f15']);
    expect(factIds(await list({ breed_id: 'beagle', species_id: 'dog', category: 'anatomy' }))).toEqual(['f00']);
  });

  it("accepts the real service's numeric species ids", async () => {
    expect(factIds(await list({ species_id: '1', limit: '3' }))).toEqual(['f00', 'f02', 'f04']);
  });

  it('translates and says in Content-Language when records fell back to English', async () => {
    const result = await list({ lang: 'de', limit: '2' });

    expect(jsonBody(result).map((f: { title: string }) => f.title)).toEqual(['Titel', 'Title f01']);
    expect(result.headers['content-language']).toBe('de, en');
  });

  it.each([
    [{ limit: '0' }, 'limit must be at least 1'],
    [{ limit: '101' }, 'limit must be at most 100'],
    [{ offset: '-1' }, 'offset must be at least 0'],
    [{ lang: 'it' }, 'lang is not supported; use one of: en, en-gb, de, es, fr, pl, uk'],
    [{ species_id: 'horse' }, 'species_id must be dog or cat (or 1 for dogs, 2 for cats)'],
    [{ page: '1' }, "unknown query parameter 'page'"],
  ])('rejects %o with 400 and the problem in the error JSON', async (query, message) => {
    const result = await list(query);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      path: '/v1/facts',
      message: [message],
    });
  });
});
