import { gzipSync } from 'node:zlib';
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { buildPostings, ordinalKey, type ImageSummary } from '../../shared/domain/images/catalogue-index.ts';
import { SEGMENT_CAPACITY } from '../../shared/domain/images/public-index.ts';
import { photoTails } from '../../shared/domain/images/catalogue-store.ts';
import type { mockDynamoWithAccounts } from './fixtures.ts';
import type { BreedRecord } from '../../shared/domain/reference/breeds.ts';
import type { CategoryRecord } from '../../shared/domain/reference/categories.ts';
import type { ColourData } from '../../shared/domain/reference/colours.ts';
import type { FactRecord, HealthTipRecord, LawRecord } from '../../shared/domain/reference/records.ts';
import type { ReferenceSet } from '../../shared/domain/reference/snapshot-store.ts';

export function aBreed(overrides: Partial<BreedRecord> & Pick<BreedRecord, 'id' | 'name'>): BreedRecord {
  return {
    species_id: 'dog',
    alt_names: [],
    temperament: ['Loyal'],
    life_span: { min: 10, max: 13 },
    weight: { imperial: { min: 50, max: 90 }, metric: { min: 22, max: 40 } },
    height: { imperial: { min: 22, max: 26 }, metric: { min: 55, max: 65 } },
    origin: 'Germany',
    country_code: 'DE',
    country_codes: ['DE'],
    breed_groups: ['Herding'],
    wikipedia_url: null,
    extinct: false,
    mixed: false,
    registry_ids: {
      fci: 166,
      fci_group: 1,
      fci_section: 1,
      fci_provisional: false,
      akc: true,
      ems: null,
      tica: null,
      vbo: null,
    },
    recognition: { fci: 'full' },
    venom_codes: [],
    source_urls: [],
    estimated_fields: [],
    one_figure_fields: [],
    period: null,
    description: null,
    i18n: {},
    ...overrides,
  };
}

export function aFact(overrides: Partial<FactRecord> & Pick<FactRecord, 'id'>): FactRecord {
  return {
    slug: overrides.id,
    title: `Title ${overrides.id}`,
    fact: `Fact ${overrides.id}`,
    species_id: 'dog',
    breed_id: null,
    category: 'history',
    source_url: `https://example.org/${overrides.id}`,
    source_name: 'Example',
    i18n: {},
    ...overrides,
  };
}

export function aTip(overrides: Partial<HealthTipRecord> & Pick<HealthTipRecord, 'id'>): HealthTipRecord {
  return {
    slug: overrides.id,
    title: `Tip title ${overrides.id}`,
    tip: `Tip ${overrides.id}`,
    category: 'nutrition',
    species_id: 'dog',
    breed_id: null,
    life_stage: null,
    sources: [{ url: `https://example.org/${overrides.id}`, name: 'Example' }],
    i18n: {},
    ...overrides,
  };
}

export function aLaw(overrides: Partial<LawRecord> & Pick<LawRecord, 'id' | 'country_code'>): LawRecord {
  return {
    country_name: overrides.country_code,
    jurisdiction: null,
    amends: null,
    title: `Law ${overrides.id}`,
    legislation_type: 'breed_specific',
    approach: 'ban',
    species_id: 'dog',
    breeds: [],
    summary: 'A law.',
    status: 'in_force',
    effective_date: null,
    repealed_date: null,
    preempts_local_bsl: false,
    source_url: 'https://example.org/law',
    sources: [{ url: 'https://example.org/law', kind: 'secondary' }],
    verified_at: null,
    verification: 'secondary',
    verification_note: null,
    i18n: {},
    ...overrides,
  };
}

export interface ReferenceFixtures {
  breeds?: BreedRecord[];
  temperaments?: Record<string, Record<string, string>>;
  colours?: ColourData;
  categories?: CategoryRecord[];
  facts?: FactRecord[];
  'health-tips'?: HealthTipRecord[];
  legislation?: LawRecord[];
  /** The image catalogue, served through its facet index. */
  images?: ImageSummary[];
  /** The catalogue's index version (a new one stands for a reseed); `img` unless given. */
  catalogueVersion?: string;
  /** Photos of the public library, served through its tier of the index (heads and segments). */
  library?: ImageSummary[];
}

/**
 * Makes the mocked table serve reference snapshots (pointer GetItem + chunk Query) of the given records,
 * on top of the account lookups `mockDynamoWithAccounts` already answers.
 */
export function serveReferenceData(ddb: ReturnType<typeof mockDynamoWithAccounts>, fixtures: ReferenceFixtures): void {
  const sets: Record<ReferenceSet, unknown> = {
    breeds: [],
    temperaments: {},
    colours: { variants: [], breeds: {} },
    categories: [],
    facts: [],
    'health-tips': [],
    legislation: [],
    ...fixtures,
  };
  const facetContext = {
    groupsOf: new Map((sets.breeds as BreedRecord[]).map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())])),
    codeOf: new Map((sets.colours as ColourData).variants.map((v) => [v.id, v.code])),
  };
  const postings = buildPostings(fixtures.images ?? [], facetContext);
  const counts = Object.fromEntries([...postings].map(([f, list]) => [f, list.length]));
  const photos = photoTails(postings);
  const version = fixtures.catalogueVersion ?? 'img';
  ddb.on(GetCommand, { Key: { sk: 'CURRENT' } } as never).callsFake((input: { Key: { pk: string } }) => {
    const set = input.Key.pk.replace('REFDATA#', '');
    return { Item: set === 'images' ? { version, counts, photos } : { version: `v-${set}`, chunks: 1 } };
  });
  const facetOf = (pk: string) => (pk.startsWith(`IMGIDX#${version}#`) ? pk.slice(`IMGIDX#${version}#`.length) : '');
  // The library tier: each facet's photos in segments of SEGMENT_CAPACITY, a head with their sizes.
  const library = buildPostings(fixtures.library ?? [], facetContext);
  const segmentsOf = (facet: string) => {
    const list = library.get(facet) ?? [];
    return Array.from({ length: Math.ceil(list.length / SEGMENT_CAPACITY) }, (_, k) =>
      list.slice(k * SEGMENT_CAPACITY, (k + 1) * SEGMENT_CAPACITY),
    );
  };
  const libraryItem = (pk: string, sk: string) => {
    const facet = pk.replace(/^PUBIDX#/, '');
    if (!library.has(facet)) return undefined;
    if (sk === 'HEAD') return { pk, sk, sizes: segmentsOf(facet).map((s) => s.length), rev: 1 };
    const segment = segmentsOf(facet)[Number(sk.replace(/^SEG#/, ''))];
    return segment && { pk, sk, images: Object.fromEntries(segment.map((i) => [i.id, i])) };
  };
  const posting = (pk: string, n: number) => {
    const image = postings.get(facetOf(pk))?.[n];
    return image && { pk, sk: ordinalKey(n), image };
  };
  ddb
    .on(QueryCommand)
    .callsFake((input: { ExpressionAttributeValues: Record<string, string>; ScanIndexForward?: boolean }) => {
      const values = input.ExpressionAttributeValues;
      const pk = values[':pk']!;
      if (pk.startsWith('REFDATA#')) {
        const set = pk.replace(/^REFDATA#/, '').replace(/#v-.*$/, '') as ReferenceSet;
        return { Items: [{ data: gzipSync(JSON.stringify(sets[set])) }] };
      }
      if (pk.startsWith('PUBIDX#'))
        return { Items: segmentsOf(pk.replace(/^PUBIDX#/, '')).map((_, k) => libraryItem(pk, `SEG#${k}`)) };
      const size = postings.get(facetOf(pk))?.length ?? 0;
      const from = values[':from'] === undefined ? 0 : Number(values[':from']);
      const to = values[':to'] === undefined ? size - 1 : Number(values[':to']);
      const items = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => posting(pk, from + i)).filter(Boolean);
      return { Items: input.ScanIndexForward === false ? items.reverse() : items };
    });
  ddb
    .on(BatchGetCommand)
    .callsFake((input: { RequestItems: Record<string, { Keys: { pk: string; sk: string }[] }> }) => {
      const [table, { Keys }] = Object.entries(input.RequestItems)[0]!;
      const item = (k: { pk: string; sk: string }) =>
        k.pk.startsWith('PUBIDX#') ? libraryItem(k.pk, k.sk) : posting(k.pk, Number(k.sk));
      return { Responses: { [table]: Keys.map(item).filter(Boolean) } };
    });
}

export function anImage(overrides: Partial<ImageSummary> & Pick<ImageSummary, 'id'>): ImageSummary {
  return {
    file: `catalogue/${overrides.id}.jpg`,
    width: 800,
    height: 600,
    species_id: 'dog',
    breed_ids: [],
    category_ids: [],
    colour_ids: [],
    age_months: null,
    created_at: `2025-01-01T00:00:${overrides.id.padStart(2, '0').slice(-2)}.000Z`,
    ...overrides,
  };
}
