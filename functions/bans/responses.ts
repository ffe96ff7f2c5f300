// What the bans routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { banCountryList, breedRestrictionList, lawList } from '../../shared/domain/reference/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { bansRoutes } from './routes.ts';

export const bansResponses = {
  'bans.countries': banCountryList,
  'bans.country': lawList,
  'bans.breed': breedRestrictionList,
} satisfies ResponseSchemas<typeof bansRoutes>;
