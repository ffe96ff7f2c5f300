import * as z from 'zod/mini';
import { categoryPage } from '../../shared/domain/reference/categories.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { listReply } from '../../shared/http/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { categoryList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject(pageQuery({ defaultLimit: 10, maxLimit: 100 }));

/** `breed_groups`/`exclude_breed_groups` are accepted as the spec lists them; categories belong to no breed group, so they leave the list unchanged (docs/decisions.md). */
export const handler = httpRoute(
  route('categories.list'),
  { summary: 'Categories', headers: ['pagination-count', 'content-language'], query, response: categoryList },
  async ({ query: q }, deps) => {
    const { categories, total, translator } = await categoryPage(deps, q);
    return listReply(categories, total, translator);
  },
);
