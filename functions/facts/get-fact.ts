import * as z from 'zod/mini';
import { getFact, presentFact } from '../../shared/domain/reference/facts.ts';
import { contentQuery } from '../../shared/domain/reference/list-query.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { factBody } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('facts.get'),
  {
    summary: 'One fact',
    headers: ['content-language'],
    params: idParam('id'),
    query: z.strictObject(contentQuery),
    response: factBody,
  },
  async ({ params, query }, deps) => {
    const view = presentation(query.lang, query.include_sources);
    return translatedReply(presentFact(await getFact(deps, params.id), view), view);
  },
);
