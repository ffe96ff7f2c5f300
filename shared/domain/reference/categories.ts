import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { notFound } from '../../errors.ts';
import { type Language, type Translations, Translator } from './i18n.ts';
import { loadReferenceSet } from './snapshot-store.ts';
import type { Species } from './species.ts';
import { pageSlice, shuffle } from '../../schema/paging.ts';

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

/**
 * One page of the categories (of one species, if given) in the caller's language, with the count of all that match
 * and the translator that served them.
 */
export async function categoryPage(
  deps: ReferenceDeps & Pick<Deps, 'random'>,
  q: { species_id?: Species | undefined; order: Order | undefined; page: number; limit: number; lang?: Language },
) {
  const categories = (await loadCategories(deps)).filter((c) => !q.species_id || c.species_ids.includes(q.species_id));
  const matching = orderCategories(categories, q.order, deps.random);
  const translator = new Translator(q.lang ?? 'en');
  return {
    categories: pageSlice(matching, q).map((c) => presentCategory(c, translator)),
    total: matching.length,
    translator,
  };
}

/** ASC/DESC by id (the real service's order); RANDOM shuffles; none keeps id order. */
function orderCategories(
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
