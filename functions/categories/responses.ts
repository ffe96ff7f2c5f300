// What the categories routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { categoryBody, categoryList } from '../../shared/domain/reference/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { categoriesRoutes } from './routes.ts';

export const categoriesResponses = {
  'categories.list': categoryList,
  'categories.get': categoryBody,
} satisfies ResponseSchemas<typeof categoriesRoutes>;
