import * as z from 'zod/mini';
import { breedPage, breedPageOf } from '../../shared/domain/reference/breed-listing.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { boolean, text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { listReply } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { breedList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({
  ...pageQuery({ defaultLimit: 1000, maxLimit: 1000 }),
  extinct: z._default(boolean(), false),
  venom_code: z.optional(text({ max: 20 })),
});

export const handler = httpRoute(
  route('breeds.list'),
  {
    summary: 'Breeds',
    description:
      'Every breed by default (living ones; `extinct=true` for the extinct), in catalogue order unless `order` is given.',
    headers: ['pagination-count', 'content-language'],
    query,
    response: breedList,
  },
  async ({ query: q, account }, deps) => {
    const { breeds, total, translator } = await breedPage(deps, account, breedPageOf(q));
    return listReply(breeds, total, translator);
  },
);
