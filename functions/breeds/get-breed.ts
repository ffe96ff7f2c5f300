import * as z from 'zod/mini';
import {
  hasFullBreedSchema,
  loadTemperaments,
  presentBreed,
  requireBreed,
} from '../../shared/domain/reference/breeds.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { langParam, Translator } from '../../shared/domain/reference/i18n.ts';
import { breedBody } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({ lang: z.optional(langParam) });

export const handler = httpRoute(
  route('breeds.get'),
  { summary: 'One breed', headers: ['content-language'], params: idParam('id'), query, response: breedBody },
  async ({ params, query, account }, deps) => {
    const [breed, temperaments] = await Promise.all([requireBreed(deps, params.id), loadTemperaments(deps)]);
    const translator = new Translator(query.lang ?? 'en');
    const body = presentBreed(breed, hasFullBreedSchema(account), translator, temperaments, deps.config.mediaBaseUrl);
    return withHeaders(body, { 'content-language': translator.contentLanguage });
  },
);
