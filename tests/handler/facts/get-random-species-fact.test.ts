import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/facts/get-random-species-fact.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { jsonBody } from '../../support/http-event.ts';
import { getWithKey, serveFacts } from './facts-fixtures.ts';

const randomFor = (speciesId: string, query?: Record<string, string>) =>
  getWithKey(handler, `/facts/species/${speciesId}/random`, query, { speciesId });

describe('GET /v1/facts/species/{speciesId}/random', () => {
  beforeEach(() => serveFacts());

  it("picks among the species' facts only", async () => {
    setDepsForTest({ random: () => 0.999 });

    expect(jsonBody(await randomFor('dog'))).toMatchObject({ id: 'f24', species_id: 'dog' });
    expect(jsonBody(await randomFor('cat'))).toMatchObject({ id: 'f23', species_id: 'cat' });
  });

  it("accepts the real service's numeric species ids and any case", async () => {
    setDepsForTest({ random: () => 0 });

    expect(jsonBody(await randomFor('2'))).toMatchObject({ id: 'f01', species_id: 'cat' });
    expect(jsonBody(await randomFor('1'))).toMatchObject({ id: 'f00', species_id: 'dog' });
    expect(jsonBody(await randomFor('CAT'))).toMatchObject({ id: 'f01', species_id: 'cat' });
  });

  it('answers 404 naming the species that exist for an unknown one', async () => {
    const result = await randomFor('horse');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toMatchObject({
      error: 'Not Found',
      path: '/v1/facts/species/horse/random',
      message: 'Species horse does not exist (use dog or cat)',
    });
  });

  it('answers 404 when the species has no facts', async () => {
    serveFacts([]);

    const result = await randomFor('dog');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result).message).toBe('No facts for species dog found');
  });
});
