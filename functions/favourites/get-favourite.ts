import { getOwnFavourite, presentFavourite } from '../../shared/domain/interactions/favourites.ts';
import { idParam } from '../../shared/http/common-params.ts';
import { bearerTokens } from '../../shared/auth/bearer.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('favourites.get'),
  { bearerTokens, summary: 'One of your favourites', params: idParam('id') },
  async ({ params, account }, deps) => presentFavourite(await getOwnFavourite(deps, account, params.id)),
);
