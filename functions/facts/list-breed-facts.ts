import * as z from 'zod/mini';
import { requireBreed } from '../../shared/domain/reference/breeds.ts';
import { findFacts, presentFact } from '../../shared/domain/reference/facts.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { offsetQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { offsetPage, presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { factList } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('facts.list-by-breed'),
  {
    summary: "A breed's facts",
    headers: ['content-language'],
    params: idParam('breedId'),
    query: z.strictObject(offsetQuery),
    response: factList,
  },
  async ({ params, query }, deps) => {
    await requireBreed(deps, params.breedId);
    const view = presentation(query.lang, query.include_sources);
    const facts = await findFacts(deps, { breedId: params.breedId });
    return translatedReply(
      offsetPage(facts, query.offset, query.limit).map((f) => presentFact(f, view)),
      view,
    );
  },
);
