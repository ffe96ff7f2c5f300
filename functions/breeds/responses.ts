// What the breeds routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { breedBody, breedGroupList, breedList, colourList } from '../../shared/domain/reference/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { breedsRoutes } from './routes.ts';

export const breedsResponses = {
  'breeds.list': breedList,
  'breeds.search': breedList,
  'breeds.groups': breedGroupList,
  'breeds.get': breedBody,
  'breeds.colours': colourList,
} satisfies ResponseSchemas<typeof breedsRoutes>;
