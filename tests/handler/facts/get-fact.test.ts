import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/get-fact.ts';
import { jsonBody } from '../../support/http-event.ts';
import { getWithKey, serveFacts } from './facts-fixtures.ts';

const getFact = (id: string, query?: Record<string, string>) => getWithKey(handler, `/facts/${id}`, query, { id });

describe('GET /v1/facts/{id}', () => {
  beforeEach(() => serveFacts());

  it('answers the one fact, with sources on request', async () => {
    const plain = await getFact('f03');
    const withSources = await getFact('f03', { include_sources: 'true' });

    expect(jsonBody(plain)).toEqual({
      id: 'f03',
      slug: 'f03',
      title: 'Title f03',
      fact: 'Fact f03',
      species_id: 'cat',
      breed_id: null,
      category: 'history',
    });
    expect(jsonBody(withSources)).toMatchObject({ source_url: 'https://example.org/f03', source_name: 'Example' });
  });

  it('translates, and says when a fact without the translation fell back to English', async () => {
    const translated = await getFact('f00', { lang: 'de' });
    const fallback = await getFact('f03', { lang: 'de' });

    expect(jsonBody(translated)).toMatchObject({ title: 'Titel', fact: 'Tatsache' });
    expect(translated.headers['content-language']).toBe('de');
    expect(jsonBody(fallback)).toMatchObject({ title: 'Title f03' });
    expect(fallback.headers['content-language']).toBe('en');
  });

  it('answers 404 with the error JSON for an id that does not exist', async () => {
    const result = await getFact('zz');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Fact zz does not exist',
      path: '/v1/facts/zz',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('rejects an unsupported language with 400', async () => {
    const result = await getFact('f00', { lang: 'it' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual(['lang is not supported; use one of: en, en-gb, de, es, fr, pl, uk']);
  });
});
