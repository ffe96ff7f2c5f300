import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { filtered, type ContentFilter, type ContentRecord, type Presentation } from '../reference/content.ts';
import type { Translations } from '../reference/i18n.ts';
import { loadReferenceSet } from '../reference/snapshot.ts';

export interface HealthTipRecord extends ContentRecord {
  slug: string;
  title: string;
  tip: string;
  life_stage: 'young' | 'adult' | 'senior' | null;
  sources: { url: string; name: string }[];
  i18n?: Translations<{ title: string; tip: string }>;
}

type TipDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const findHealthTips = (deps: TipDeps, filter: ContentFilter) => filtered<HealthTipRecord>(deps, 'health-tips', filter);

export async function getHealthTip(deps: TipDeps, id: string): Promise<HealthTipRecord> {
  const tip = (await loadReferenceSet<HealthTipRecord[]>(deps, 'health-tips')).find((t) => t.id === id);
  if (!tip) throw notFound(`Health tip ${id} does not exist`);
  return tip;
}

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
