import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/list-breed-facts.ts';
import { jsonBody } from '../../support/http-event.ts';
import { factIds, getWithKey, serveFacts } from './facts-fixtures.ts';

const listFor = (breedId: string, query?: Record<string, string>) =>
  getWithKey(handler, `/facts/breed/${breedId}`, query, { breedId });

describe('GET /v1/facts/breed/{breedId}', () => {
  beforeEach(() => serveFacts());

  it("lists only the breed's facts, paged by offset and limit", async () => {
    expect(factIds(await listFor('beagle'))).toEqual(['f00', 'f01', 'f02']);
    expect(factIds(await listFor('beagle', { limit: '2' }))).toEqual(['f00', 'f01']);
    expect(factIds(await listFor('beagle', { offset: '2' }))).toEqual(['f02']);
  });

  it('answers an empty list for a known breed without facts', async () => {
    const result = await listFor('pug');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual([]);
  });

  it('translates on request and adds sources on request', async () => {
    const result = await listFor('beagle', { lang: 'de', include_sources: 'true', limit: '1' });

    expect(jsonBody(result)).toEqual([
      expect.objectContaining({ title: 'Titel', fact: 'Tatsache', source_url: 'https://example.org/f00' }),
    ]);
    expect(result.headers['content-language']).toBe('de');
  });

  it('answers 404 naming an unknown breed', async () => {
    const result = await listFor('nope');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result).message).toBe('Breed nope does not exist');
  });

  it('rejects a query parameter of the full list with 400', async () => {
    const result = await listFor('beagle', { species_id: 'dog' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual(["unknown query parameter 'species_id'"]);
  });
});
