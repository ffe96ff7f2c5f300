import { calculateEnergyRequirement } from '../../shared/domain/calculators/service.ts';
import { calculatorQuery, energyRequirementBody } from '../../shared/domain/calculators/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { energyRequirementResult } from '../../shared/domain/calculators/responses.ts';

export const handler = httpRoute(
  route('calculators.energy-requirement'),
  {
    summary: 'Daily energy requirement (RER and MER)',
    description:
      'Weight, species, age and neuter status from the request, else the pet (`pet_id`), else the breed standard (`breed_id`). 422 `weight_required` when no weight is usable. `units=imperial` adds `weight_lb`.',
    errors: [422],
    query: calculatorQuery,
    body: energyRequirementBody,
    response: energyRequirementResult,
  },
  ({ query, body, account }, deps) => calculateEnergyRequirement(deps, account, body, query.units),
);
