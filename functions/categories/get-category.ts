import * as z from 'zod/mini';
import { getCategory, presentCategory } from '../../shared/domain/reference/categories.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { langParam, Translator } from '../../shared/domain/reference/i18n.ts';
import { categoryBody } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({ lang: z.optional(langParam) });

export const handler = httpRoute(
  route('categories.get'),
  { summary: 'One category', headers: ['content-language'], params: idParam('id'), query, response: categoryBody },
  async ({ params, query }, deps) => {
    const translator = new Translator(query.lang ?? 'en');
    const body = presentCategory(await getCategory(deps, params.id), translator);
    return withHeaders(body, { 'content-language': translator.contentLanguage });
  },
);
