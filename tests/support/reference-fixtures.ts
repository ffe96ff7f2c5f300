import { gzipSync } from 'node:zlib';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { mockDynamoWithAccounts } from './fixtures.ts';
import type { BreedRecord } from '../../shared/domain/breeds.ts';
import type { CategoryRecord } from '../../shared/domain/categories.ts';
import type { ColourData } from '../../shared/domain/colours.ts';
import type { FactRecord } from '../../shared/domain/facts.ts';
import type { HealthTipRecord } from '../../shared/domain/health-tips.ts';
import type { LawRecord } from '../../shared/domain/legislation.ts';
import type { ReferenceSet } from '../../shared/reference/snapshot.ts';

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
    registry_ids: { fci: 166 },
    recognition: { fci: 'full' },
    venom_codes: [],
    source_urls: [],
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
    ...overrides,
  };
}

export function aLaw(overrides: Partial<LawRecord> & Pick<LawRecord, 'id' | 'country_code'>): LawRecord {
  return {
    country_name: overrides.country_code,
    jurisdiction: null,
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
    verified_at: null,
    verification: 'unverified',
    verification_note: null,
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
  ddb.on(GetCommand, { Key: { sk: 'CURRENT' } } as never).callsFake((input: { Key: { pk: string } }) => {
    const set = input.Key.pk.replace('REFDATA#', '') as ReferenceSet;
    return { Item: { version: `v-${set}`, chunks: 1 } };
  });
  ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => {
    const set = input.ExpressionAttributeValues[':pk']!.replace(/^REFDATA#/, '').replace(/#v-.*$/, '') as ReferenceSet;
    return { Items: [{ data: gzipSync(JSON.stringify(sets[set])) }] };
  });
}
