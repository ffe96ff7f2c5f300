import * as z from 'zod/mini';
import { presentFact, randomFact } from '../../shared/domain/reference/facts.ts';
import { contentQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { factBody } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('facts.random'),
  { summary: 'A random fact', headers: ['content-language'], query: z.strictObject(contentQuery), response: factBody },
  async ({ query }, deps) => {
    const view = presentation(query.lang, query.include_sources);
    return translatedReply(presentFact(await randomFact(deps, {}, 'facts'), view), view);
  },
);
