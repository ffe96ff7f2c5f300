import { analysisDeps } from '../../shared/adapters/vision/index.ts';
import { langQuery } from '../../shared/domain/analysis/input.ts';
import { muscleConditionScore } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('analysis.muscle-condition-score'),
  { params: petParams, query: langQuery },
  ({ params, query, account }, deps) => muscleConditionScore(analysisDeps(deps), account, params.petId, query),
);
