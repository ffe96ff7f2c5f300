import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/search-images.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import type { ImageSummary } from '../../../shared/domain/images/catalogue-index.ts';
import { HELD } from '../../../shared/domain/images/catalogue-store.ts';
import { aBreed, anImage, serveReferenceData } from '../../support/reference-fixtures.ts';

const images = [
  anImage({ id: '01', breed_ids: ['beagle'], category_ids: [1], colour_ids: ['dog-black'], age_months: 6 }),
  anImage({ id: '02', breed_ids: ['beagle'], colour_ids: ['dog-tan'], age_months: 30 }),
  anImage({ id: '03', breed_ids: ['pug'], category_ids: [1] }),
  anImage({ id: '04', species_id: 'cat', breed_ids: ['abyssinian'], colour_ids: ['cat-n'] }),
  anImage({ id: '05' }),
];
const fixtures = {
  images,
  breeds: [
    aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] }),
    aBreed({ id: 'pug', name: 'Pug', breed_groups: ['Toy'] }),
    aBreed({ id: 'abyssinian', name: 'Abyssinian', species_id: 'cat', breed_groups: ['Shorthair'] }),
  ],
  categories: [{ id: 1, name: 'Hats', species_ids: ['dog' as const, 'cat' as const] }],
  colours: {
    variants: [
      { id: 'dog-black', species_id: 'dog' as const, code: 'BLK', name: 'Black', kind: 'colour' as const },
      { id: 'dog-tan', species_id: 'dog' as const, code: 'TAN', name: 'Tan', kind: 'colour' as const },
      { id: 'cat-n', species_id: 'cat' as const, code: 'n', name: 'Black', kind: 'colour' as const },
    ],
    breeds: {},
  },
};

let ddb: ReturnType<typeof mockDynamoWithAccounts>;
const search = (query: Record<string, string> = {}) =>
  handler(httpEvent({ path: '/v1/images/search', headers: { 'x-api-key': USER_KEY }, query }), lambdaContext);
const ids = (result: unknown) => jsonBody(result).map((i: { id: string }) => i.id);
/** Reads of the catalogue tier's postings (every search also reads the public library's facet heads). */
const postingReads = (command: typeof BatchGetCommand) =>
  ddb.commandCalls(command).filter((c) => JSON.stringify(c.args[0].input).includes('IMGIDX#'));
/** Queries of one facet partition of the catalogue tier (`IMGIDX#<version>#<facet>`). */
const facetQueries = (partition: string) =>
  ddb.commandCalls(QueryCommand).filter((c) => c.args[0].input.ExpressionAttributeValues?.[':pk'] === partition);

describe('GET /v1/images/search', () => {
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveReferenceData(ddb, fixtures);
    setDepsForTest({ random: () => 0 });
  });

  it('answers one random image by default, with breeds and categories, and the total in Pagination-Count', async () => {
    const result = await search();

    expect(jsonBody(result)).toHaveLength(1);
    expect(result.headers['pagination-count']).toBe('5');
    expect(jsonBody(result)[0]).toMatchObject({
      url: expect.stringMatching(/\/catalogue\/\d+\.jpg$/),
      breeds: expect.any(Array),
      categories: expect.any(Array),
    });
  });

  // Every unfiltered search reads facet `all`: from the table, its partition was the stage's first DynamoDB limit.
  it('holds a facet it reads in memory: one read of the whole facet per container and index version, none after', async () => {
    await search();
    await search();
    await search({ order: 'ASC', limit: '2', page: '1' });
    await search({ order: 'DESC', breed_id: 'beagle' });

    expect(facetQueries('IMGIDX#img#all')).toHaveLength(1);
    expect(facetQueries('IMGIDX#img#breed:beagle')).toHaveLength(1);
    expect(postingReads(BatchGetCommand)).toHaveLength(0);
  });

  it('reads the facet again for a new index version, and once what it holds has aged', async () => {
    let now = new Date('2026-11-28T09:00:00.000Z');
    const later = (ms: number) => {
      now = new Date(now.getTime() + ms);
    };
    setDepsForTest({ random: () => 0, now: () => now });
    await search();

    serveReferenceData(ddb, { ...fixtures, images: images.slice(1), catalogueVersion: 'img-2' });
    later(4 * 60 * 1000);
    expect(ids(await search({ order: 'ASC', limit: '1' }))).toEqual(['01']);
    later(2 * 60 * 1000); // past the pointer's five-minute recheck: the new version
    expect(ids(await search({ order: 'ASC', limit: '1' }))).toEqual(['02']);
    await search();
    later(HELD.ms);
    await search();

    expect(facetQueries('IMGIDX#img#all')).toHaveLength(1);
    expect(facetQueries('IMGIDX#img-2#all')).toHaveLength(2);
  });

  it('pages a facet too large to hold from the table, page by page', async () => {
    const many = Array.from({ length: HELD.postings + 1 }, (_, n) => anImage({ id: `i${String(n).padStart(5, '0')}` }));
    serveReferenceData(ddb, { ...fixtures, images: many });

    expect(ids(await search())).toHaveLength(1);
    expect(ids(await search({ order: 'ASC', limit: '2', page: '1' }))).toHaveLength(2);

    expect(postingReads(BatchGetCommand)).toHaveLength(1);
    expect(facetQueries('IMGIDX#img#all').map((c) => c.args[0].input.ExpressionAttributeValues)).toEqual([
      { ':pk': 'IMGIDX#img#all', ':from': expect.any(String), ':to': expect.any(String) },
    ]);
  });

  it('pages in ASC and DESC order', async () => {
    expect(ids(await search({ order: 'ASC', limit: '2', page: '1' }))).toEqual(['03', '04']);
    expect(ids(await search({ order: 'desc', limit: '2', page: '0' }))).toEqual(['05', '04']);
    expect(postingReads(BatchGetCommand)).toHaveLength(0);
  });

  it('filters by breed, breed lists, species, colour, colour code and categories', async () => {
    expect(ids(await search({ breed_id: 'beagle', order: 'ASC', limit: '10' }))).toEqual(['01', '02']);
    expect(ids(await search({ breed_ids: 'pug,abyssinian', order: 'ASC', limit: '10' }))).toEqual(['03', '04']);
    expect(ids(await search({ species_id: 'cat', order: 'ASC', limit: '10' }))).toEqual(['04']);
    expect(ids(await search({ colour_code: 'blk', order: 'ASC', limit: '10' }))).toEqual(['01']);
    expect(ids(await search({ category_ids: '1', breed_id: 'pug', order: 'ASC', limit: '10' }))).toEqual(['03']);
  });

  it('filters has_breeds, has_colours, breed groups and excluded groups', async () => {
    expect(ids(await search({ has_breeds: 'false', order: 'ASC', limit: '10' }))).toEqual(['05']);
    expect(ids(await search({ has_colours: 'true', species_id: 'dog', order: 'ASC', limit: '10' }))).toEqual([
      '01',
      '02',
    ]);
    expect(ids(await search({ breed_groups: 'hound', order: 'ASC', limit: '10' }))).toEqual(['01', '02']);
    expect(ids(await search({ exclude_breed_groups: 'HOUND', has_breeds: 'true', order: 'ASC', limit: '10' }))).toEqual(
      ['03', '04'],
    );
  });

  it("filters by the pet's age at the time of the photo", async () => {
    const result = await search({ age_months_min: '12', order: 'ASC', limit: '10' });

    expect(ids(result)).toEqual(['02']);
    expect(result.headers['pagination-count']).toBe('1');
  });

  it('includes colours on request and leaves out breeds and categories on request', async () => {
    const [image] = jsonBody(
      await search({
        breed_id: 'beagle',
        order: 'ASC',
        include_colours: 'true',
        include_breeds: 'false',
        include_categories: 'false',
      }),
    );

    expect(image.colours).toEqual([{ id: 'dog-black', code: 'BLK', name: 'Black' }]);
    expect(image).not.toHaveProperty('breeds');
    expect(image).not.toHaveProperty('categories');
  });

  it('orders by id on request', async () => {
    expect(ids(await search({ order_by: 'id', order: 'DESC', limit: '2' }))).toEqual(['05', '04']);
  });

  it('returns nothing for an account without uploads, reading no postings', async () => {
    const result = await search({ account_id: 'acc-nobody', order: 'ASC' });

    expect(jsonBody(result)).toEqual([]);
    expect(result.headers['pagination-count']).toBe('0');
    expect(
      ddb
        .commandCalls(QueryCommand)
        .filter((c) => String(c.args[0].input.ExpressionAttributeValues?.[':pk']).startsWith('IMGIDX')),
    ).toHaveLength(0);
  });

  describe('with photos of the public library', () => {
    const photo = (id: string, at: string, overrides: Partial<ImageSummary> = {}) =>
      anImage({
        id,
        file: `images/acc-user/${id}.jpg`,
        breed_ids: ['beagle'],
        colour_ids: ['dog-black'],
        created_at: at,
        kind: 'photo',
        attribution: { author: 'Ana', licence: 'CC-BY-4.0', source_url: null },
        ...overrides,
      });
    const library = [photo('p1', '2026-11-01T00:00:00.000Z'), photo('p2', '2026-11-02T00:00:00.000Z')];
    beforeEach(() => serveReferenceData(ddb, { ...fixtures, library }));

    it('counts and pages them after the catalogue, in both orders, marked as attributed photos', async () => {
      const first = await search({ breed_id: 'beagle', order: 'ASC', limit: '3' });
      expect(ids(first)).toEqual(['01', '02', 'p1']);
      expect(first.headers['pagination-count']).toBe('4');
      expect(ids(await search({ breed_id: 'beagle', order: 'ASC', limit: '3', page: '1' }))).toEqual(['p2']);
      const newest = await search({ order: 'DESC', limit: '3' });
      expect(ids(newest)).toEqual(['p2', 'p1', '05']);
      expect(newest.headers['pagination-count']).toBe('7');
      expect(jsonBody(newest)[0]).toMatchObject({
        kind: 'photo',
        attribution: { author: 'Ana', licence: 'CC-BY-4.0', source_url: null },
        url: expect.stringMatching(/\/images\/acc-user\/p2\.jpg$/),
      });
      expect(jsonBody(newest)[2]).toMatchObject({ kind: 'illustration', attribution: null });
    });

    it('draws random pages over both tiers and filters them in memory with the catalogue', async () => {
      setDepsForTest({ random: () => 0.99 });
      expect(ids(await search({ breed_id: 'beagle', limit: '1' }))).toEqual(['p2']);
      expect(ids(await search({ breed_id: 'beagle', limit: '10' })).sort()).toEqual(['01', '02', 'p1', 'p2']);
      const filtered = await search({ breed_id: 'beagle', colour_id: 'dog-black', order: 'ASC', limit: '10' });
      expect(ids(filtered)).toEqual(['01', 'p1', 'p2']);
      expect(ids(await search({ species_id: 'cat', order: 'ASC', limit: '10' }))).toEqual(['04']);
    });
  });

  describe("with the catalogue's real photos (issue 27)", () => {
    const attribution = {
      author: 'Ana',
      licence: 'CC-BY-SA-3.0',
      licence_url: 'https://creativecommons.org/licenses/by-sa/3.0/',
      source_url: 'https://commons.example.org/c1',
    };
    const photo = anImage({
      id: 'c1',
      file: 'catalogue/c1.jpg',
      breed_ids: ['beagle'],
      created_at: '2026-11-28T00:00:00.000Z',
      kind: 'photo',
      attribution,
    });
    beforeEach(() => serveReferenceData(ddb, { ...fixtures, images: [...images, photo] }));

    it('answers the photos first in the default random order, however the draw falls', async () => {
      for (const r of [0, 0.5, 0.99]) {
        setDepsForTest({ random: () => r });
        const page = jsonBody(await search({ breed_id: 'beagle', limit: '2' }));
        expect(page[0], String(r)).toEqual(expect.objectContaining({ id: 'c1', kind: 'photo', attribution }));
        expect(page[1].kind).toBe('illustration');
        // filters no single facet answers go through memory, with the same rule
        expect(ids(await search({ breed_ids: 'pug,beagle', limit: '1' })), String(r)).toEqual(['c1']);
      }
    });

    it('keeps an explicit order by date: the photos, added last, open a newest-first page and close an oldest-first one', async () => {
      expect(ids(await search({ breed_id: 'beagle', order: 'DESC', limit: '10' }))).toEqual(['c1', '02', '01']);
      expect(ids(await search({ breed_id: 'beagle', order: 'ASC', limit: '10' }))).toEqual(['01', '02', 'c1']);
    });
  });

  it.each([
    [{ limit: '101' }, 'limit must be at most 100'],
    [{ order: 'newest' }, 'order must be one of: ASC, DESC, RANDOM'],
    [{ order_by: 'colour' }, 'order_by must be one of: created_at, id'],
    [{ age_months_min: '24', age_months_max: '12' }, 'age_months_min must not be greater than age_months_max'],
    [
      { sub_id: 'jane@example.com' },
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
    ],
    [{ breed: 'beagle' }, "unknown query parameter 'breed'"],
  ])('rejects %o with 400', async (query, message) => {
    const result = await search(query);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([message]);
  });
});
