import * as z from 'zod/mini';
import { requireBreed } from '../../shared/domain/reference/breeds.ts';
import { loadLaws, placesRestrictingBreed } from '../../shared/domain/reference/legislation.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { langParam, Translator } from '../../shared/domain/reference/i18n.ts';
import { speciesParam } from '../../shared/domain/reference/species.ts';
import { breedRestrictionList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({ species_id: z.optional(speciesParam), lang: z.optional(langParam) });

export const handler = httpRoute(
  route('bans.breed'),
  {
    summary: 'Where a breed is banned or restricted',
    headers: ['content-language'],
    params: idParam('breedId'),
    query,
    response: breedRestrictionList,
  },
  async ({ params, query }, deps) => {
    const breed = await requireBreed(deps, params.breedId);
    const translator = new Translator(query.lang ?? 'en');
    const places = placesRestrictingBreed(await loadLaws(deps), breed.id, query.species_id, translator);
    return withHeaders(places, { 'content-language': translator.contentLanguage });
  },
);
