import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { notFound } from '../../errors.ts';
import type { Translations, Translator } from './i18n.ts';
import { loadReferenceSet } from './snapshot-store.ts';
import type { Species } from './species.ts';
import { shuffle } from '../../schema/paging.ts';

export interface CategoryRecord {
  id: number;
  name: string;
  species_ids: Species[];
  i18n?: Translations<{ name: string }>;
}

type ReferenceDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

export const loadCategories = (deps: ReferenceDeps) => loadReferenceSet<CategoryRecord[]>(deps, 'categories');

export async function getCategory(deps: ReferenceDeps, id: string): Promise<CategoryRecord> {
  const category = (await loadCategories(deps)).find((c) => String(c.id) === id);
  if (!category) throw notFound(`Category ${id} does not exist`);
  return category;
}

/** ASC/DESC by id (the real service's order); RANDOM shuffles; none keeps id order. */
export function orderCategories(
  categories: CategoryRecord[],
  order: Order | undefined,
  random: () => number,
): CategoryRecord[] {
  if (order === 'RANDOM') return shuffle([...categories], random);
  const sorted = [...categories].sort((a, b) => a.id - b.id);
  return order === 'DESC' ? sorted.reverse() : sorted;
}

export function presentCategory(category: CategoryRecord, translator: Translator) {
  const { name } = translator.apply({ name: category.name }, category.i18n);
  return { id: category.id, name, species_ids: category.species_ids };
}
