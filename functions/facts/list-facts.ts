import * as z from 'zod/mini';
import { findFacts, presentFact } from '../../shared/domain/reference/facts.ts';
import { offsetQuery } from '../../shared/domain/reference/list-query.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { offsetPage, presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { speciesParam } from '../../shared/domain/reference/species.ts';
import { factList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({
  ...offsetQuery,
  breed_id: z.optional(text({ max: 100 })),
  species_id: z.optional(speciesParam),
  category: z.optional(text({ max: 50 })),
});

export const handler = httpRoute(
  route('facts.list'),
  { summary: 'Facts', headers: ['content-language'], query, response: factList },
  async ({ query: q }, deps) => {
    const facts = await findFacts(deps, { breedId: q.breed_id, speciesId: q.species_id, category: q.category });
    const view = presentation(q.lang, q.include_sources);
    return translatedReply(
      offsetPage(facts, q.offset, q.limit).map((f) => presentFact(f, view)),
      view,
    );
  },
);
