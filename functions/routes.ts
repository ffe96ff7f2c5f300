// The route table: plain data, imported by the CDK app, the local gateway, the HTTP pipeline and the tests. Only routes
// that are built belong here. Paths are relative to the `/v1` base path. Each area keeps its entries in
// functions/<area>/routes.ts, whose handlers import them from there: a Lambda bundle then holds its own area's routes,
// not the whole table (docs/decisions.md). This file joins them, in the order the OpenAPI document lists them.
import { routesById, type RouteDef } from '../shared/http/route-def.ts';
import { systemRoutes } from './system/routes.ts';
import { docsRoutes } from './docs/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { accountsRoutes } from './accounts/routes.ts';
import { factsRoutes } from './facts/routes.ts';
import { healthTipsRoutes } from './health-tips/routes.ts';
import { categoriesRoutes } from './categories/routes.ts';
import { breedsRoutes } from './breeds/routes.ts';
import { bansRoutes } from './bans/routes.ts';
import { imagesRoutes } from './images/routes.ts';
import { petsRoutes } from './pets/routes.ts';
import { votesRoutes } from './votes/routes.ts';
import { favouritesRoutes } from './favourites/routes.ts';
import { analysisRoutes, respiratoryRateRoutes } from './analysis/routes.ts';
import { reviewsRoutes } from './reviews/routes.ts';
import { calculatorsRoutes } from './calculators/routes.ts';
import { webhooksRoutes } from './webhooks/routes.ts';

export { fallbackRoute } from './system/routes.ts';

export const routes = [
  ...systemRoutes,
  ...docsRoutes,
  ...authRoutes,
  ...accountsRoutes,
  ...factsRoutes,
  ...healthTipsRoutes,
  ...categoriesRoutes,
  ...breedsRoutes,
  ...bansRoutes,
  ...imagesRoutes,
  ...petsRoutes,
  ...votesRoutes,
  ...favouritesRoutes,
  ...analysisRoutes,
  ...reviewsRoutes,
  ...respiratoryRateRoutes,
  ...calculatorsRoutes,
  ...webhooksRoutes,
] as const satisfies readonly RouteDef[];

/** The table entry of any route, typed as declared. */
export const route = routesById(routes);
