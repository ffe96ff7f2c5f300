import { calculateEnergyRequirement } from '../../shared/domain/calculators/service.ts';
import { energyRequirementBody } from '../../shared/domain/calculators/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('calculators.energy-requirement', { body: energyRequirementBody }, ({ body }, deps) =>
  calculateEnergyRequirement(deps, body),
);
