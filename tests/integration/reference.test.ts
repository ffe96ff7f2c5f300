import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';

describe('reference content over HTTP with the real data sets', () => {
  let key: string;
  let fullKey: string;
  beforeAll(async () => {
    key = (await createAccount()).api_key;
    fullKey = (await createAccount({ features: ['full_breed_schema'] })).api_key;
  });

  it('lists every living breed in one gzipped response by default', async () => {
    const res = await api('GET', '/breeds', { key, headers: { 'accept-encoding': 'gzip' } });

    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(400);
    expect(Number(res.headers.get('pagination-count'))).toBe(res.body.length);
    expect(res.body.every((b: { id: string }) => typeof b.id === 'string')).toBe(true);
  });

  it('prefers literal routes over parameter routes', async () => {
    const search = await api('GET', '/breeds/search?q=beagle', { key });
    const groups = await api('GET', '/breeds/breed-groups', { key });
    const random = await api('GET', '/facts/random', { key });

    expect(search.body.map((b: { id: string }) => b.id)).toContain('beagle');
    expect(groups.body).toContain('Herding');
    expect(random.body).toHaveProperty('fact');
  });

  it('serves the detailed breed shape only to full_breed_schema accounts', async () => {
    const basic = await api('GET', '/breeds/german-shepherd-dog', { key });
    const detailed = await api('GET', '/breeds/german-shepherd-dog', { key: fullKey });

    expect(basic.body).not.toHaveProperty('venom_codes');
    expect(detailed.body.registry_ids.fci).toBe(166);
  });

  it('translates breed names into German', async () => {
    const res = await api('GET', '/breeds/german-shepherd-dog?lang=de', { key });

    expect(res.body.name).toBe('Deutscher Schäferhund');
    expect(res.headers.get('content-language')).toMatch(/^de/);
  });

  it('serves facts with sources on request, and 404 for an unknown fact', async () => {
    const facts = await api('GET', '/facts?limit=5&include_sources=true&species_id=cat', { key });
    const missing = await api('GET', '/facts/nope', { key });

    expect(facts.body).toHaveLength(5);
    expect(
      facts.body.every(
        (f: { species_id: string; source_url: string }) =>
          f.species_id === 'cat' && f.source_url.startsWith('https://'),
      ),
    ).toBe(true);
    expect(missing.status).toBe(404);
  });

  it('serves breed colours with codes, legislation and health tips', async () => {
    const colours = await api('GET', '/breeds/abyssinian/colours', { key });
    const countries = await api('GET', '/breeds/bans/countries', { key });
    const germany = await api('GET', '/breeds/bans/country?country=DE', { key });
    const tips = await api('GET', '/health-tips?category=grooming&limit=3', { key });

    expect(colours.body.some((c: { scope: string; code: string }) => c.scope === 'breed' && c.code.length > 0)).toBe(
      true,
    );
    expect(countries.body.length).toBeGreaterThanOrEqual(20);
    expect(germany.body.length).toBeGreaterThan(0);
    expect(tips.body.every((t: { category: string }) => t.category === 'grooming')).toBe(true);
  });

  it('asks for a key on reference routes', async () => {
    expect((await api('GET', '/breeds')).status).toBe(403);
  });
});
