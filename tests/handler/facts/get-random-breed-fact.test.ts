import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/get-random-breed-fact.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { jsonBody } from '../../support/http-event.ts';
import { getWithKey, serveFacts } from './facts-fixtures.ts';

const randomFor = (breedId: string, query?: Record<string, string>) =>
  getWithKey(handler, `/facts/breed/${breedId}/random`, query, { breedId });

describe('GET /v1/facts/breed/{breedId}/random', () => {
  beforeEach(() => serveFacts());

  it("picks among the breed's facts only", async () => {
    setDepsForTest({ random: () => 0 });
    expect(jsonBody(await randomFor('beagle'))).toMatchObject({ id: 'f00', breed_id: 'beagle' });

    setDepsForTest({ random: () => 0.999 });
    expect(jsonBody(await randomFor('beagle'))).toMatchObject({ id: 'f02', breed_id: 'beagle' });
  });

  it('adds sources on request', async () => {
    setDepsForTest({ random: () => 0.5 });

    expect(jsonBody(await randomFor('beagle', { include_sources: 'true' }))).toMatchObject({
      id: 'f01',
      source_url: 'https://example.org/f01',
    });
  });

  it('answers 404 for a known breed without facts, and a different 404 for an unknown breed', async () => {
    const withoutFacts = await randomFor('pug');
    const unknown = await randomFor('nope');

    expect(withoutFacts.statusCode).toBe(404);
    expect(jsonBody(withoutFacts).message).toBe('No facts for breed pug found');
    expect(unknown.statusCode).toBe(404);
    expect(jsonBody(unknown).message).toBe('Breed nope does not exist');
  });
});
