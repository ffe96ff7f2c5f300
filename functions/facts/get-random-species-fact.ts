import * as z from 'zod/mini';
import { presentFact, randomFact } from '../../shared/domain/reference/facts.ts';
import { contentQuery } from '../../shared/domain/reference/list-query.ts';
import { notFound } from '../../shared/errors.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { resolveSpecies } from '../../shared/domain/reference/species.ts';
import { factBody } from '../../shared/domain/reference/responses.ts';

const params = z.object({ speciesId: text({ max: 20 }) });

export const handler = httpRoute(
  route('facts.random-by-species'),
  {
    summary: 'A random fact about a species',
    headers: ['content-language'],
    params,
    query: z.strictObject(contentQuery),
    response: factBody,
  },
  async ({ params, query }, deps) => {
    const species = resolveSpecies(params.speciesId);
    if (!species) throw notFound(`Species ${params.speciesId} does not exist (use dog or cat)`);
    const view = presentation(query.lang, query.include_sources);
    return translatedReply(
      presentFact(await randomFact(deps, { speciesId: species }, `facts for species ${species}`), view),
      view,
    );
  },
);
