import { analysisDeps } from '../../shared/adapters/vision/index.ts';
import { seasonalQuery } from '../../shared/domain/analysis/input.ts';
import { estimatedWeight } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('analysis.estimated-weight'),
  { params: petParams, query: seasonalQuery },
  ({ params, query, account }, deps) => estimatedWeight(analysisDeps(deps), account, params.petId, query),
);
