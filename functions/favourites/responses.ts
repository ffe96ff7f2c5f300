// What the favourites routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import { successMessage } from '../../shared/domain/images/responses.ts';
import { favouriteBody, favouriteListItem } from '../../shared/domain/interactions/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { favouritesRoutes } from './routes.ts';

export const favouritesResponses = {
  'favourites.list': z.array(favouriteListItem),
  'favourites.create': favouriteBody,
  'favourites.get': favouriteBody,
  'favourites.delete': successMessage,
} satisfies ResponseSchemas<typeof favouritesRoutes>;
