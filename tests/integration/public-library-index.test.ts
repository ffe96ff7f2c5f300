// The public library's tier of the search index on DynamoDB Local, in a table of its own (the shared stack's catalogue
// stays as other tests expect it): photos published through the import core page after the catalogue in both orders,
// across segment boundaries, survive a reseed of the catalogue from data/, and leave search when unpublished.
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../scripts/local/stack.ts';
import { loadConfig } from '../../shared/config.ts';
import { imageKey } from '../../shared/db/keys.ts';
import type { CatalogueFacetContext, ImageSummary } from '../../shared/domain/images/catalogue-index.ts';
import { clearCatalogueCache, writeCatalogueIndex } from '../../shared/domain/images/catalogue-store.ts';
import { publishImportedPhoto } from '../../shared/domain/images/imports.ts';
import { SEGMENT_CAPACITY } from '../../shared/domain/images/public-index.ts';
import type { PublicTags, TagVocabulary } from '../../shared/domain/images/publishing.ts';
import { unpublishWrites } from '../../shared/domain/images/publishing.ts';
import { type ImageSearch, searchImages } from '../../shared/domain/images/search.ts';

const env = inject('localEnv');
const tableName = `public-library-${randomBytes(4).toString('hex')}`;
const client = new DynamoDBClient({
  endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const ddb = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
let clock = Date.parse('2026-11-24T10:00:00.000Z');
const deps = {
  ddb,
  config: loadConfig({ ...env, TABLE_NAME: tableName }),
  now: () => new Date(clock),
  random: Math.random,
};

const context: CatalogueFacetContext = { groupsOf: new Map([['beagle', ['hound']]]), codeOf: new Map() };
const vocabulary: TagVocabulary = {
  breeds: [{ id: 'beagle', species_id: 'dog', breed_groups: ['Hound'] }] as TagVocabulary['breeds'],
  colours: [],
  categories: [],
};
const catalogueImage = (id: string, day: number): ImageSummary => ({
  id,
  file: `catalogue/${id}.jpg`,
  width: 100,
  height: 100,
  species_id: 'dog',
  breed_ids: ['beagle'],
  category_ids: [],
  colour_ids: [],
  age_months: null,
  created_at: `2024-01-${String(day).padStart(2, '0')}T00:00:00.000Z`,
});
const BEAGLE: PublicTags = { species_id: 'dog', breed_ids: ['beagle'], colour_ids: [], category_ids: [] };
const CAT: PublicTags = { species_id: 'cat', breed_ids: [], colour_ids: [], category_ids: [] };

const importPhoto = (id: string, tags: PublicTags) => {
  clock += 1000;
  return publishImportedPhoto(
    deps,
    {
      id,
      file: `public/${id}.jpg`,
      width: 640,
      height: 480,
      tags,
      attribution: { author: 'Ana', licence: 'CC-BY-4.0', source_url: `https://example.org/${id}` },
    },
    vocabulary,
  );
};

async function search(filter: ImageSearch['filter'], order: ImageSearch['order'], page = 0, limit = 10) {
  clearCatalogueCache();
  const result = await searchImages(
    deps,
    { filter, order, orderBy: 'created_at', page, limit },
    { groupsOf: (b) => context.groupsOf.get(b) ?? [], codeOf: () => undefined },
  );
  return { ids: result.images.map((i) => i.id), total: result.total };
}

beforeAll(async () => {
  await ensureTable(client, tableName);
  await writeCatalogueIndex(ddb, tableName, [catalogueImage('c1', 1), catalogueImage('c2', 2)], context);
});
afterAll(async () => {
  clearCatalogueCache();
  await client.send(new DeleteTableCommand({ TableName: tableName }));
});

describe('the public library tier of image search', () => {
  it('pages published photos after the catalogue in both orders, and a re-import publishes nothing twice', async () => {
    expect(await importPhoto('p1', BEAGLE)).toBe('published');
    expect(await importPhoto('p2', BEAGLE)).toBe('published');
    expect(await importPhoto('p1', BEAGLE)).toBe('exists');

    const beagles = { breedIds: ['beagle'] };
    expect(await search(beagles, 'ASC')).toEqual({ ids: ['c1', 'c2', 'p1', 'p2'], total: 4 });
    expect(await search(beagles, 'DESC', 0, 3)).toEqual({ ids: ['p2', 'p1', 'c2'], total: 4 });
    expect(await search(beagles, 'DESC', 1, 3)).toEqual({ ids: ['c1'], total: 4 });
    expect((await search({ breedGroups: ['hound'] }, 'ASC')).ids).toEqual(['c1', 'c2', 'p1', 'p2']);
    const random = await search({}, 'RANDOM', 0, 10);
    expect(random.ids.sort()).toEqual(['c1', 'c2', 'p1', 'p2']);
  });

  it('keeps the photos, their items and their order through a reseed of the catalogue from data/', async () => {
    const reseed = await writeCatalogueIndex(
      ddb,
      tableName,
      [catalogueImage('c1', 1), catalogueImage('c3', 3)],
      context,
    );
    expect(reseed.changed).toBe(true);

    expect(await search({ breedIds: ['beagle'] }, 'ASC')).toEqual({ ids: ['c1', 'c3', 'p1', 'p2'], total: 4 });
    const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: imageKey('p1') }));
    expect(Item).toMatchObject({ source: 'import', kind: 'photo', attribution: { author: 'Ana' } });
  });

  it('stays dense and ordered across segments, and unpublishing takes a photo out of every facet', async () => {
    const cats = Array.from({ length: SEGMENT_CAPACITY + 3 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    for (const id of cats) await importPhoto(id, CAT);
    const catsOnly = { species: 'cat' as const };
    expect(await search(catsOnly, 'ASC', 4, 12)).toEqual({ ids: cats.slice(48, 53), total: cats.length });

    const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: imageKey('k010') }));
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName, Key: imageKey('k010') } },
          ...unpublishWrites(tableName, 'k010', Item!.public),
        ],
      }),
    );

    const remaining = cats.filter((id) => id !== 'k010');
    expect(await search(catsOnly, 'ASC', 0, 100)).toEqual({ ids: remaining, total: remaining.length });
    expect(await search(catsOnly, 'DESC', 0, 3)).toEqual({
      ids: remaining.slice(-3).reverse(),
      total: remaining.length,
    });
    expect((await search({}, 'ASC', 0, 100)).total).toBe(2 + 2 + remaining.length);
    expect((await search(catsOnly, 'RANDOM', 0, 100)).ids.sort()).toEqual(remaining);
  }, 240_000); // 53 sequential publications (one transaction each): 30-90 s on a loaded two-core machine
});
