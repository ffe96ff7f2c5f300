import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getFact } from '../../../functions/facts/get-fact.ts';
import { handler as randomBreedFact } from '../../../functions/facts/get-random-breed-fact.ts';
import { handler as randomFact } from '../../../functions/facts/get-random-fact.ts';
import { handler as randomSpeciesFact } from '../../../functions/facts/get-random-species-fact.ts';
import { handler as listBreedFacts } from '../../../functions/facts/list-breed-facts.ts';
import { handler as listFacts } from '../../../functions/facts/list-facts.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aBreed, aFact, serveReferenceData, type ReferenceFixtures } from '../../support/reference-fixtures.ts';

const facts = Array.from({ length: 25 }, (_, i) =>
  aFact({
    id: `f${String(i).padStart(2, '0')}`,
    species_id: i % 2 === 0 ? 'dog' : 'cat',
    breed_id: i < 3 ? 'beagle' : null,
    category: i % 5 === 0 ? 'anatomy' : 'history',
    ...(i === 0 && { i18n: { de: { title: 'Titel', fact: 'Tatsache' } } }),
  }),
);
const fixtures: ReferenceFixtures = {
  facts,
  breeds: [aBreed({ id: 'beagle', name: 'Beagle' }), aBreed({ id: 'pug', name: 'Pug' })],
};

const call = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
) => callWithKey(handler, USER_KEY, path, query, pathParameters);

describe('facts', () => {
  beforeEach(() => serveReferenceData(mockDynamoWithAccounts(standardAccounts()), fixtures));

  it('lists 10 facts by default, without sources, in English', async () => {
    const result = await call(listFacts, '/facts');

    const body = jsonBody(result);
    expect(body).toHaveLength(10);
    expect(body[0]).toEqual({
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
    const body = jsonBody(await call(listFacts, '/facts', { offset: '20', limit: '10' }));

    expect(body.map((f: { id: string }) => f.id)).toEqual(['f20', 'f21', 'f22', 'f23', 'f24']);
  });

  it('adds source URLs only with include_sources=true', async () => {
    const [fact] = jsonBody(await call(listFacts, '/facts', { include_sources: 'true', limit: '1' }));

    expect(fact).toMatchObject({ source_url: 'https://example.org/f00', source_name: 'Example' });
  });

  it('filters by breed, species and category together', async () => {
    const body = jsonBody(
      await call(listFacts, '/facts', { breed_id: 'beagle', species_id: 'dog', category: 'ANATOMY' }),
    );

    expect(body.map((f: { id: string }) => f.id)).toEqual(['f00']);
  });

  it('translates and says in Content-Language when records fell back to English', async () => {
    const result = await call(listFacts, '/facts', { lang: 'de', limit: '2' });

    expect(jsonBody(result)[0]).toMatchObject({ title: 'Titel', fact: 'Tatsache' });
    expect(result.headers['content-language']).toBe('de, en');
  });

  it.each([
    [{ limit: '0' }, 'limit must be at least 1'],
    [{ limit: '101' }, 'limit must be at most 100'],
    [{ offset: '-1' }, 'offset must be at least 0'],
    [{ lang: 'it' }, 'lang is not supported; use one of: en, en-gb, de, es, fr, pl, uk'],
    [{ species_id: 'horse' }, 'species_id must be dog or cat (or 1 for dogs, 2 for cats)'],
    [{ page: '1' }, "unknown query parameter 'page'"],
  ])('rejects %o with 400', async (query, message) => {
    const result = await call(listFacts, '/facts', query);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([message]);
  });

  it("lists a breed's facts and answers 404 for an unknown breed", async () => {
    expect(
      jsonBody(await call(listBreedFacts, '/facts/breed/beagle', { limit: '2' }, { breedId: 'beagle' })),
    ).toHaveLength(2);
    expect((await call(listBreedFacts, '/facts/breed/nope', {}, { breedId: 'nope' })).statusCode).toBe(404);
  });

  it('picks a random fact with the injected random source', async () => {
    setDepsForTest({ random: () => 0.999 });

    expect(jsonBody(await call(randomFact, '/facts/random'))).toMatchObject({ id: 'f24' });
  });

  it('answers 404 from the random routes when nothing matches', async () => {
    expect((await call(randomBreedFact, '/facts/breed/pug/random', {}, { breedId: 'pug' })).statusCode).toBe(404);
    expect((await call(randomSpeciesFact, '/facts/species/horse/random', {}, { speciesId: 'horse' })).statusCode).toBe(
      404,
    );
  });

  it("accepts the real service's numeric species ids", async () => {
    setDepsForTest({ random: () => 0 });

    expect(jsonBody(await call(randomSpeciesFact, '/facts/species/2/random', {}, { speciesId: '2' }))).toMatchObject({
      species_id: 'cat',
    });
  });

  it('gets one fact by id, and 404 for a missing one', async () => {
    expect(jsonBody(await call(getFact, '/facts/f03', { include_sources: 'true' }, { id: 'f03' }))).toMatchObject({
      id: 'f03',
      source_url: 'https://example.org/f03',
    });
    expect(jsonBody(await call(getFact, '/facts/zz', {}, { id: 'zz' }))).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
    });
  });

  it('answers 404 from /facts/random when there are no facts at all', async () => {
    serveReferenceData(mockDynamoWithAccounts(standardAccounts()), { facts: [] });

    expect((await call(randomFact, '/facts/random')).statusCode).toBe(404);
  });
});
