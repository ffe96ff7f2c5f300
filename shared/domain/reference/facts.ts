import type { Deps } from '../../deps.ts';
import { filtered, pickRandom, recordById, type ContentFilter, type Presentation } from './content.ts';
import type { FactRecord } from './records.ts';

type FactDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const findFacts = (deps: FactDeps, filter: ContentFilter) => filtered<FactRecord>(deps, 'facts', filter);

export const getFact = (deps: FactDeps, id: string) => recordById<FactRecord>(deps, 'facts', id, 'Fact');

export async function randomFact(
  deps: FactDeps & Pick<Deps, 'random'>,
  filter: ContentFilter,
  what: string,
): Promise<FactRecord> {
  return pickRandom(await findFacts(deps, filter), deps.random, what);
}

/** The public fact: sources only when asked for (`include_sources=true`). */
export function presentFact(record: FactRecord, { includeSources, translator }: Presentation) {
  const text = translator.apply({ title: record.title, fact: record.fact }, record.i18n);
  return {
    id: record.id,
    slug: record.slug,
    title: text.title,
    fact: text.fact,
    species_id: record.species_id,
    breed_id: record.breed_id,
    category: record.category,
    ...(includeSources && { source_url: record.source_url, source_name: record.source_name }),
  };
}
