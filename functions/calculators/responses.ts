// What the calculators routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { energyRequirementResult } from '../../shared/domain/calculators/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { calculatorsRoutes } from './routes.ts';

export const calculatorsResponses = {
  'calculators.energy-requirement': energyRequirementResult,
} satisfies ResponseSchemas<typeof calculatorsRoutes>;
