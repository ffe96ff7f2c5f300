import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/get-random-fact.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { jsonBody } from '../../support/http-event.ts';
import { getWithKey, serveFacts } from './facts-fixtures.ts';

const randomFact = (query?: Record<string, string>) => getWithKey(handler, '/facts/random', query);

describe('GET /v1/facts/random', () => {
  beforeEach(() => serveFacts());

  it('picks uniformly over all facts with the injected random source', async () => {
    setDepsForTest({ random: () => 0 });
    expect(jsonBody(await randomFact())).toMatchObject({ id: 'f00' });

    setDepsForTest({ random: () => 0.5 });
    expect(jsonBody(await randomFact())).toMatchObject({ id: 'f12' });

    setDepsForTest({ random: () => 0.999 });
    expect(jsonBody(await randomFact())).toMatchObject({ id: 'f24' });
  });

  it('answers one fact object, translated and with sources on request', async () => {
    setDepsForTest({ random: () => 0 });

    const result = await randomFact({ lang: 'de', include_sources: 'true' });

    expect(jsonBody(result)).toMatchObject({
      id: 'f00',
      title: 'Titel',
      fact: 'Tatsache',
      source_url: 'https://example.org/f00',
      source_name: 'Example',
    });
    expect(result.headers['content-language']).toBe('de');
  });

  it('answers 404 when there are no facts at all', async () => {
    serveFacts([]);

    const result = await randomFact();

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toMatchObject({ error: 'Not Found', message: 'No facts found' });
  });

  it('rejects list parameters with 400: a random pick has no paging', async () => {
    const result = await randomFact({ limit: '5' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual(["unknown query parameter 'limit'"]);
  });
});
