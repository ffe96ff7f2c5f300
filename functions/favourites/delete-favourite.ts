import { SUCCESS } from '../../shared/http/responses.ts';
import { deleteFavourite } from '../../shared/domain/interactions/favourites.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { successMessage } from '../../shared/domain/images/responses.ts';

export const handler = httpRoute(
  route('favourites.delete'),
  { summary: 'Delete one of your favourites', params: idParam('id'), response: successMessage },
  async ({ params, account }, deps) => {
    await deleteFavourite(deps, account, params.id);
    return SUCCESS;
  },
);
