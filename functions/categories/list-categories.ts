import * as z from 'zod/mini';
import { loadCategories, orderCategories, presentCategory } from '../../shared/domain/reference/categories.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { listReply } from '../../shared/http/responses.ts';
import { pageSlice } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { Translator } from '../../shared/domain/reference/i18n.ts';
import { categoryList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject(pageQuery({ defaultLimit: 10, maxLimit: 100 }));

/** `breed_groups`/`exclude_breed_groups` are accepted as the spec lists them; categories belong to no breed group, so they leave the list unchanged (docs/decisions.md). */
export const handler = httpRoute(
  route('categories.list'),
  { summary: 'Categories', headers: ['pagination-count', 'content-language'], query, response: categoryList },
  async ({ query: q }, deps) => {
    const categories = (await loadCategories(deps)).filter(
      (c) => !q.species_id || c.species_ids.includes(q.species_id),
    );
    const matching = orderCategories(categories, q.order, deps.random);
    const translator = new Translator(q.lang ?? 'en');
    return listReply(
      pageSlice(matching, q).map((c) => presentCategory(c, translator)),
      matching.length,
      translator,
    );
  },
);
