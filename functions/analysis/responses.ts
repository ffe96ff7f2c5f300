// What the analysis routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import {
  bodyConditionBody,
  estimatedAgeBody,
  estimatedWeightBody,
  genealogyBody,
  muscleConditionBody,
  petHealthTipsBody,
} from '../../shared/domain/analysis/responses.ts';
import { measurementBody } from '../../shared/domain/respiration/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { analysisRoutes, respiratoryRateRoutes } from './routes.ts';

export const analysisResponses = {
  'analysis.body-condition-score': bodyConditionBody,
  'analysis.estimated-age': estimatedAgeBody,
  'analysis.genealogy': genealogyBody,
  'analysis.muscle-condition-score': muscleConditionBody,
  'analysis.estimated-weight': estimatedWeightBody,
  'analysis.health-tips': petHealthTipsBody,
  'analysis.respiratory-rate-create': measurementBody,
  'analysis.respiratory-rate-get': measurementBody,
} satisfies ResponseSchemas<[...typeof analysisRoutes, ...typeof respiratoryRateRoutes]>;
