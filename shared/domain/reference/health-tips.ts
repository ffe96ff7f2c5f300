import type { Deps } from '../../deps.ts';
import { filtered, recordById, type ContentFilter, type Presentation } from './content.ts';
import type { HealthTipRecord } from './records.ts';

type TipDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const findHealthTips = (deps: TipDeps, filter: ContentFilter) =>
  filtered<HealthTipRecord>(deps, 'health-tips', filter);

export const getHealthTip = (deps: TipDeps, id: string) =>
  recordById<HealthTipRecord>(deps, 'health-tips', id, 'Health tip');

export function presentHealthTip(record: HealthTipRecord, { includeSources, translator }: Presentation) {
  const text = translator.apply({ title: record.title, tip: record.tip }, record.i18n);
  return {
    id: record.id,
    slug: record.slug,
    title: text.title,
    tip: text.tip,
    category: record.category,
    species_id: record.species_id,
    breed_id: record.breed_id,
    life_stage: record.life_stage,
    ...(includeSources && { sources: record.sources }),
  };
}
