// What the facts routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { factBody, factList } from '../../shared/domain/reference/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { factsRoutes } from './routes.ts';

export const factsResponses = {
  'facts.list': factList,
  'facts.random': factBody,
  'facts.list-by-breed': factList,
  'facts.random-by-breed': factBody,
  'facts.random-by-species': factBody,
  'facts.get': factBody,
} satisfies ResponseSchemas<typeof factsRoutes>;
