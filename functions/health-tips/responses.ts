// What the health-tips routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { healthTipBody, healthTipList } from '../../shared/domain/reference/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { healthTipsRoutes } from './routes.ts';

export const healthTipsResponses = {
  'health-tips.list': healthTipList,
  'health-tips.list-by-breed': healthTipList,
  'health-tips.get': healthTipBody,
} satisfies ResponseSchemas<typeof healthTipsRoutes>;
