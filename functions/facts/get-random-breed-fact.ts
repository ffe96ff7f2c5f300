import * as z from 'zod/mini';
import { requireBreed } from '../../shared/domain/reference/breeds.ts';
import { presentFact, randomFact } from '../../shared/domain/reference/facts.ts';
import { contentQuery } from '../../shared/domain/reference/list-query.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { factBody } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('facts.random-by-breed'),
  {
    summary: 'A random fact about a breed',
    headers: ['content-language'],
    params: idParam('breedId'),
    query: z.strictObject(contentQuery),
    response: factBody,
  },
  async ({ params, query }, deps) => {
    const breed = await requireBreed(deps, params.breedId);
    const view = presentation(query.lang, query.include_sources);
    return translatedReply(
      presentFact(await randomFact(deps, { breedId: breed.id }, `facts for breed ${breed.id}`), view),
      view,
    );
  },
);
