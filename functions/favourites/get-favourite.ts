import { getOwnFavourite, presentFavourite } from '../../shared/domain/interactions/favourites.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { favouriteBody } from '../../shared/domain/interactions/responses.ts';

export const handler = httpRoute(
  route('favourites.get'),
  { summary: 'One of your favourites', params: idParam('id'), response: favouriteBody },
  async ({ params, account }, deps) => presentFavourite(await getOwnFavourite(deps, account, params.id)),
);
