import * as z from 'zod/mini';
import { breedRestrictions } from '../../shared/domain/reference/legislation.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { langParam } from '../../shared/domain/reference/i18n.ts';
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
    const { places, translator } = await breedRestrictions(deps, params.breedId, query);
    return translatedReply(places, { translator });
  },
);
