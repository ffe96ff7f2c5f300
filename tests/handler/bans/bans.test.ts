import { beforeEach, describe, expect, it } from 'vitest';
import { handler as breedBans } from '../../../functions/bans/list-breed-bans.ts';
import { handler as banCountries } from '../../../functions/bans/list-ban-countries.ts';
import { handler as countryBans } from '../../../functions/bans/list-country-bans.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aBreed, aLaw, serveReferenceData } from '../../support/reference-fixtures.ts';

const pit = { name: 'Pit bull terrier', breed_id: 'pit', includes_mixes: true };
const legislation = [
  aLaw({
    id: 'gb-dda',
    country_code: 'GB',
    country_name: 'United Kingdom',
    breeds: [pit],
    title: 'Dangerous Dogs Act 1991',
    summary: 'Bans four fighting types.',
    i18n: { de: { title: 'Dangerous Dogs Act 1991', summary: 'Verbietet vier Kampfhundetypen.' } },
  }),
  aLaw({
    id: 'gb-sct-xl',
    country_code: 'GB',
    country_name: 'United Kingdom',
    jurisdiction: { level: 'region', name: 'Scotland', code: 'GB-SCT' },
    amends: 'gb-dda',
    legislation_type: 'characteristic_based',
  }),
  aLaw({
    id: 'gb-sct-local',
    country_code: 'GB',
    country_name: 'United Kingdom',
    jurisdiction: { level: 'region', name: 'Scotland', code: 'GB-SCT' },
    legislation_type: 'behavior_based',
    approach: 'restriction',
  }),
  aLaw({
    id: 'de-by',
    country_code: 'DE',
    country_name: 'Germany',
    jurisdiction: { level: 'state', name: 'Bavaria', code: 'BY' },
    approach: 'permit',
    breeds: [pit],
    verification: 'official_page',
    verified_at: '2026-11-22',
  }),
  aLaw({
    id: 'de-be',
    country_code: 'DE',
    country_name: 'Germany',
    jurisdiction: { level: 'state', name: 'Berlin', code: 'BE' },
    legislation_type: 'hybrid',
    approach: 'restriction',
  }),
  aLaw({ id: 'nl-old', country_code: 'NL', country_name: 'Netherlands', status: 'repealed', breeds: [pit] }),
  aLaw({
    id: 'ie-beh',
    country_code: 'IE',
    country_name: 'Ireland',
    legislation_type: 'behavior_based',
    approach: 'restriction',
  }),
];
const call = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
) => callWithKey(handler, USER_KEY, path, query, pathParameters);
const ids = (result: unknown) => jsonBody(result).map((l: { id?: string; law_id?: string }) => l.id ?? l.law_id);

describe('breed legislation', () => {
  beforeEach(() =>
    serveReferenceData(mockDynamoWithAccounts(standardAccounts()), {
      legislation,
      breeds: [aBreed({ id: 'pit', name: 'Pit', breed_groups: ['Terrier'] })],
    }),
  );

  it('lists countries with breed-specific or characteristic-based laws in force, national or local', async () => {
    const body = jsonBody(await call(banCountries, '/breeds/bans/countries'));

    expect(body).toEqual([
      { country_code: 'DE', country_name: 'Germany', national_laws: 0, jurisdiction_laws: 2 },
      { country_code: 'GB', country_name: 'United Kingdom', national_laws: 1, jurisdiction_laws: 1 },
    ]);
    expect(jsonBody(await call(banCountries, '/breeds/bans/countries', { animal_type: 'cat' }))).toEqual([]);
  });

  it('returns national laws with the rows amending their designated types, or the jurisdiction-level ones where there are none', async () => {
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'gb' }))).toEqual(['gb-dda', 'gb-sct-xl']);
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE' }))).toEqual(['de-by', 'de-be']);
  });

  it('serves titles and summaries in the requested language, without the translation block', async () => {
    const result = await call(countryBans, '/breeds/bans/country', { country: 'GB', lang: 'de' });
    const [dda] = jsonBody(result);
    expect(dda).toMatchObject({ title: 'Dangerous Dogs Act 1991', summary: 'Verbietet vier Kampfhundetypen.' });
    expect(dda).not.toHaveProperty('i18n');
    expect(result.headers['content-language']).toContain('de');
  });

  it('reaches every row of a jurisdiction even where the country has a national law', async () => {
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'GB', jurisdiction: 'scotland' }))).toEqual([
      'gb-sct-local',
      'gb-sct-xl',
    ]);
    expect(
      ids(await call(countryBans, '/breeds/bans/country', { country: 'GB', jurisdiction: 'GB-SCT' })),
    ).toHaveLength(2);
  });

  it('narrows by jurisdiction (name or code), type and approach', async () => {
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', jurisdiction: 'be' }))).toEqual([
      'de-be',
    ]);
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', legislation_type: 'hybrid' }))).toEqual(
      ['de-be'],
    );
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', approach: 'permit' }))).toEqual([
      'de-by',
    ]);
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', breed_groups: 'terrier' }))).toEqual([
      'de-by',
    ]);
  });

  it('keeps only rows checked against the law or an official page with verified=true (issue 27)', async () => {
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', verified: 'true' }))).toEqual([
      'de-by',
    ]);
    expect(ids(await call(countryBans, '/breeds/bans/country', { country: 'DE', verified: 'false' }))).toEqual([
      'de-by',
      'de-be',
    ]);
    expect(
      jsonBody(await call(countryBans, '/breeds/bans/country', { country: 'DE', verified: 'yes' })).message,
    ).toEqual(['verified must be true or false']);
  });

  it('keeps rows checked against the primary text with verified=true and serves each row with its sources (issue 27)', async () => {
    const statute = { url: 'https://example.org/statute', kind: 'legal_text' as const };
    const overview = { url: 'https://example.org/overview', kind: 'overview' as const };
    serveReferenceData(mockDynamoWithAccounts(standardAccounts()), {
      legislation: [
        ...legislation.filter((l) => l.id !== 'de-be'),
        aLaw({
          id: 'de-be',
          country_code: 'DE',
          country_name: 'Germany',
          jurisdiction: { level: 'state', name: 'Berlin', code: 'BE' },
          source_url: statute.url,
          sources: [statute, overview],
          verification: 'primary_text',
          verified_at: '2026-11-28',
        }),
      ],
      breeds: [aBreed({ id: 'pit', name: 'Pit', breed_groups: ['Terrier'] })],
    });
    const verified = jsonBody(await call(countryBans, '/breeds/bans/country', { country: 'DE', verified: 'true' }));
    expect(verified.map((l: { id: string }) => l.id)).toEqual(['de-by', 'de-be']);
    expect(verified[1]).toMatchObject({
      verification: 'primary_text',
      source_url: statute.url,
      sources: [statute, overview],
    });
    expect(verified[0]).toMatchObject({ verification: 'official_page' });
    const restrictions = jsonBody(await call(breedBans, '/breeds/bans/breed/pit', undefined, { breedId: 'pit' }));
    expect(restrictions.find((r: { law_id: string }) => r.law_id === 'de-by')).toMatchObject({
      verification: 'official_page',
    });
  });

  it('requires a valid country and known enum values', async () => {
    expect(jsonBody(await call(countryBans, '/breeds/bans/country')).message).toEqual(['country is required']);
    expect(jsonBody(await call(countryBans, '/breeds/bans/country', { country: 'DEU' })).message).toEqual([
      'country must be an ISO 3166-1 alpha-2 code, e.g. DE',
    ]);
    expect(
      jsonBody(await call(countryBans, '/breeds/bans/country', { country: 'DE', approach: 'forbid' })).message,
    ).toEqual(['approach must be one of: ban, restriction, permit, approved_list']);
  });

  it('lists every place that bans, restricts or licenses a breed, repealed laws left out', async () => {
    const body = jsonBody(await call(breedBans, '/breeds/bans/breed/pit', {}, { breedId: 'pit' }));

    expect(body.map((p: { law_id: string; approach: string }) => `${p.law_id}:${p.approach}`)).toEqual([
      'de-by:permit',
      'gb-dda:ban',
    ]);
    expect(body[0]).toMatchObject({ includes_mixes: true, jurisdiction: { name: 'Bavaria' } });
    expect((await call(breedBans, '/breeds/bans/breed/nope', {}, { breedId: 'nope' })).statusCode).toBe(404);
  });
});
