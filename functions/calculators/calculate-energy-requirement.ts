import { calculateEnergyRequirement } from '../../shared/domain/calculators/service.ts';
import { energyRequirementBody } from '../../shared/domain/calculators/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('calculators.energy-requirement'),
  { body: energyRequirementBody },
  ({ body, account }, deps) => calculateEnergyRequirement(deps, account, body),
);
