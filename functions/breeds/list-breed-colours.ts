import * as z from 'zod/mini';
import { breedColours } from '../../shared/domain/reference/colours.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { langParam } from '../../shared/domain/reference/i18n.ts';
import { colourList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({ lang: z.optional(langParam) });

export const handler = httpRoute(
  route('breeds.colours'),
  {
    summary: "A breed's colours and patterns",
    description:
      'First the colours its standard names (scope `breed`), then the species-wide colours, patterns and modifiers (scope `species`).',
    headers: ['content-language'],
    params: idParam('id'),
    query,
    response: colourList,
  },
  async ({ params, query }, deps) => {
    const { colours, translator } = await breedColours(deps, params.id, query.lang);
    return translatedReply(colours, { translator });
  },
);
