import * as z from 'zod/mini';
import { imageSearchQuery } from '../../shared/domain/images/input.ts';
import { imageSearchResult } from '../../shared/domain/images/responses.ts';
import { imageSearchPage } from '../../shared/domain/images/search-page.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { listReply } from '../../shared/http/responses.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('images.search'),
  {
    summary: 'Search the image catalogue',
    headers: ['pagination-count', 'content-language'],
    query: imageSearchQuery,
    response: z.array(imageSearchResult),
  },
  async ({ query, account }, deps) => {
    const { images, total, translator } = await imageSearchPage(deps, account, query);
    return listReply(images, total, translator);
  },
);
