import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getBreed } from '../../../functions/breeds/get-breed.ts';
import { handler as listColours } from '../../../functions/breeds/list-breed-colours.ts';
import { handler as listGroups } from '../../../functions/breeds/list-breed-groups.ts';
import { handler as listBreeds } from '../../../functions/breeds/list-breeds.ts';
import { handler as searchBreeds } from '../../../functions/breeds/search-breeds.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aBreed, serveReferenceData, type ReferenceFixtures } from '../../support/reference-fixtures.ts';

const FULL_KEY = 'live_full-schema-key';
const fixtures: ReferenceFixtures = {
  breeds: [
    aBreed({
      id: 'german-shepherd-dog',
      name: 'German Shepherd Dog',
      breed_groups: ['Herding', 'Sheepdogs and Cattledogs'],
      venom_codes: ['V1', 'V2'],
      temperament: ['Loyal', 'Alert'],
      reference_image: { id: 'gsdImg001', file: 'catalogue/gsdImg001.jpg', width: 800, height: 600 },
      i18n: { de: { name: 'Deutscher Schäferhund', breed_groups: ['Hüten'] } },
    }),
    aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'], venom_codes: ['V3'] }),
    aBreed({
      id: 'talbot',
      name: 'Talbot',
      breed_groups: ['Hound'],
      extinct: true,
      period: 'Middle Ages to the 18th century',
      description: 'A white scent hound of medieval England.',
      i18n: { de: { name: 'Talbot', description: 'Ein weißer Laufhund des mittelalterlichen Englands.' } },
    }),
    aBreed({
      id: 'abyssinian',
      name: 'Abyssinian',
      species_id: 'cat',
      breed_groups: ['Shorthair'],
      alt_names: ['Aby'],
      weight: null,
      height: null,
      life_span: null,
    }),
  ],
  temperaments: { Loyal: { de: 'Treu' }, Alert: { de: 'Wachsam' } },
  colours: {
    variants: [
      { id: 'dog-black', species_id: 'dog', code: 'BLK', name: 'Black', kind: 'colour' },
      { id: 'dog-black-and-tan', species_id: 'dog', code: 'BLK-TAN', name: 'Black and tan', kind: 'combination' },
      { id: 'dog-sable', species_id: 'dog', code: 'SAB', name: 'Sable', kind: 'pattern' },
      { id: 'cat-n', species_id: 'cat', code: 'n', name: 'Black', kind: 'colour' },
    ],
    breeds: { 'german-shepherd-dog': ['dog-black-and-tan', 'dog-black'] },
  },
};

const call = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
  key = USER_KEY,
) => callWithKey(handler, key, path, query, pathParameters);
const ids = (result: unknown) => jsonBody(result).map((b: { id: string }) => b.id);

const withAccounts = () =>
  mockDynamoWithAccounts([
    ...standardAccounts(),
    { apiKey: FULL_KEY, account: anAccount({ id: 'acc-full', features: ['full_breed_schema'] }) },
  ]);

describe('breeds', () => {
  beforeEach(() => serveReferenceData(withAccounts(), fixtures));

  it('lists living breeds by default, with the total in Pagination-Count', async () => {
    const result = await call(listBreeds, '/breeds');

    expect(ids(result)).toEqual(['german-shepherd-dog', 'beagle', 'abyssinian']);
    expect(result.headers['pagination-count']).toBe('3');
  });

  it('lists only extinct breeds with extinct=true', async () => {
    expect(ids(await call(listBreeds, '/breeds', { extinct: 'true' }))).toEqual(['talbot']);
  });

  it('filters breed groups case-insensitively, includes and excludes', async () => {
    expect(ids(await call(listBreeds, '/breeds', { breed_groups: 'hound,SHORTHAIR' }))).toEqual([
      'beagle',
      'abyssinian',
    ]);
    expect(ids(await call(listBreeds, '/breeds', { exclude_breed_groups: 'herding' }))).toEqual([
      'beagle',
      'abyssinian',
    ]);
  });

  it('matches venom_code against every VeNom entry of a breed, not only the first', async () => {
    expect(ids(await call(listBreeds, '/breeds', { venom_code: 'v2' }))).toEqual(['german-shepherd-dog']);
  });

  it('orders by name and pages zero-based', async () => {
    expect(ids(await call(listBreeds, '/breeds', { order: 'asc', limit: '2', page: '1' }))).toEqual([
      'german-shepherd-dog',
    ]);
    expect(ids(await call(listBreeds, '/breeds', { order: 'DESC', limit: '1' }))).toEqual(['german-shepherd-dog']);
  });

  it('accepts up to 1000 breeds per page and no more', async () => {
    expect((await call(listBreeds, '/breeds', { limit: '1000' })).statusCode).toBe(200);
    expect(jsonBody(await call(listBreeds, '/breeds', { limit: '1001' })).message).toEqual([
      'limit must be at most 1000',
    ]);
  });

  it("serves the basic shape with the real service's strings", async () => {
    const [breed] = jsonBody(await call(listBreeds, '/breeds', { limit: '1' }));

    expect(breed).toEqual({
      id: 'german-shepherd-dog',
      name: 'German Shepherd Dog',
      species_id: 'dog',
      breed_group: 'Herding',
      temperament: 'Loyal, Alert',
      life_span: '10 - 13 years',
      alt_names: '',
      wikipedia_url: '',
      origin: 'Germany',
      country_code: 'DE',
      weight: { imperial: '50 - 90', metric: '22 - 40' },
      height: { imperial: '22 - 26', metric: '55 - 65' },
      reference_image_id: 'gsdImg001',
      image: {
        id: 'gsdImg001',
        url: 'http://127.0.0.1:4566/pet-api-media/catalogue/gsdImg001.jpg',
        width: 800,
        height: 600,
      },
    });
  });

  it('tells what an extinct breed was and when it lived, translated, in the detailed shape', async () => {
    const talbot = jsonBody(await call(getBreed, '/breeds/talbot', { lang: 'de' }, { id: 'talbot' }, FULL_KEY));
    expect(talbot).toMatchObject({
      extinct: true,
      period: 'Middle Ages to the 18th century',
      description: 'Ein weißer Laufhund des mittelalterlichen Englands.',
    });
  });

  it('gives a breed without a catalogue image a null reference image', async () => {
    const breed = jsonBody(await call(getBreed, '/breeds/beagle', undefined, { id: 'beagle' }));
    expect(breed).toMatchObject({ reference_image_id: null, image: null });
  });

  it('serves the detailed shape to accounts with full_breed_schema', async () => {
    const [breed] = jsonBody(await call(listBreeds, '/breeds', { limit: '1' }, undefined, FULL_KEY));

    expect(breed).toMatchObject({
      breed_groups: ['Herding', 'Sheepdogs and Cattledogs'],
      venom_codes: ['V1', 'V2'],
      extinct: false,
      registry_ids: { fci: 166 },
      life_span_years: { min: 10, max: 13 },
    });
  });

  it('serves a minimum-only height as a minimum and says where only one figure is known (issue 27)', async () => {
    const tosa = aBreed({
      id: 'tosa',
      name: 'Tosa',
      life_span: { min: 9, max: 9 },
      height: { imperial: { min: 21 }, metric: { min: 54.5 } },
      one_figure_fields: ['life_span'],
    });
    serveReferenceData(withAccounts(), { ...fixtures, breeds: [...fixtures.breeds!, tosa] });
    const basic = jsonBody(await call(getBreed, '/breeds/tosa', undefined, { id: 'tosa' }));
    expect(basic).toMatchObject({ height: { imperial: 'at least 21', metric: 'at least 54.5' }, life_span: '9 years' });
    const detailed = jsonBody(await call(getBreed, '/breeds/tosa', undefined, { id: 'tosa' }, FULL_KEY));
    expect(detailed.height_range).toEqual({ imperial: { min: 21 }, metric: { min: 54.5 } });
    expect(detailed.one_figure_fields).toEqual(['life_span']);
  });

  it('marks a cross as mixed in the detailed shape, with empty figures rather than invented ones (issue 27)', async () => {
    const cross = aBreed({
      id: 'labradoodle',
      name: 'Labradoodle',
      mixed: true,
      breed_groups: ['Mixed'],
      temperament: [],
      life_span: null,
      weight: null,
      height: null,
      origin: '',
      country_code: null,
      country_codes: [],
    });
    serveReferenceData(withAccounts(), { ...fixtures, breeds: [...fixtures.breeds!, cross] });
    const basic = jsonBody(await call(getBreed, '/breeds/labradoodle', undefined, { id: 'labradoodle' }));
    expect(basic).toMatchObject({ breed_group: 'Mixed', life_span: '', weight: { metric: '' } });
    expect(basic.mixed).toBeUndefined();
    const detailed = jsonBody(await call(getBreed, '/breeds/labradoodle', undefined, { id: 'labradoodle' }, FULL_KEY));
    expect(detailed).toMatchObject({ mixed: true, breed_groups: ['Mixed'], life_span_years: null });
    const gsd = jsonBody(
      await call(getBreed, '/breeds/german-shepherd-dog', undefined, { id: 'german-shepherd-dog' }, FULL_KEY),
    );
    expect(gsd.mixed).toBe(false);
  });

  it('translates names, groups and temperaments', async () => {
    const result = await call(getBreed, '/breeds/german-shepherd-dog', { lang: 'de' }, { id: 'german-shepherd-dog' });

    expect(jsonBody(result)).toMatchObject({
      name: 'Deutscher Schäferhund',
      breed_group: 'Hüten',
      temperament: 'Treu, Wachsam',
    });
    expect(result.headers['content-language']).toBe('de');
  });

  it('answers 404 for a missing breed', async () => {
    expect(jsonBody(await call(getBreed, '/breeds/nope', {}, { id: 'nope' }))).toMatchObject({
      statusCode: 404,
      message: 'Breed nope does not exist',
    });
  });

  it('searches partial names and alt names, extinct included unless asked, ordered ASC by default', async () => {
    expect(ids(await call(searchBreeds, '/breeds/search', { q: 'a' }))).toEqual([
      'abyssinian',
      'beagle',
      'german-shepherd-dog',
      'talbot',
    ]);
    expect(ids(await call(searchBreeds, '/breeds/search', { q: 'ABY' }))).toEqual(['abyssinian']);
    expect(ids(await call(searchBreeds, '/breeds/search', { q: 'a', extinct: 'false' }))).not.toContain('talbot');
    expect(ids(await call(searchBreeds, '/breeds/search', { q: 'schäfer' }))).toEqual(['german-shepherd-dog']);
  });

  it('requires q of 1 to 30 characters', async () => {
    expect(jsonBody(await call(searchBreeds, '/breeds/search')).message).toEqual(['q is required']);
    expect(jsonBody(await call(searchBreeds, '/breeds/search', { q: 'x'.repeat(31) })).message).toEqual([
      'q must be at most 30 characters long',
    ]);
    expect(jsonBody(await call(searchBreeds, '/breeds/search', { q: 'a', limit: '101' })).message).toEqual([
      'limit must be at most 100',
    ]);
  });

  it('lists unique breed groups, optionally for one species', async () => {
    expect(jsonBody(await call(listGroups, '/breeds/breed-groups'))).toEqual([
      'Herding',
      'Hound',
      'Sheepdogs and Cattledogs',
      'Shorthair',
    ]);
    expect(jsonBody(await call(listGroups, '/breeds/breed-groups', { species_id: 'cat' }))).toEqual(['Shorthair']);
  });

  it("lists a breed's own colours first, then the species-wide ones, each with its code", async () => {
    const body = jsonBody(
      await call(listColours, '/breeds/german-shepherd-dog/colours', {}, { id: 'german-shepherd-dog' }),
    );

    expect(body.map((c: { code: string; scope: string }) => `${c.scope}:${c.code}`)).toEqual([
      'breed:BLK-TAN',
      'breed:BLK',
      'species:SAB',
    ]);
  });
});
