import { analysisDeps } from '../../shared/adapters/vision/index.ts';
import { langQuery } from '../../shared/domain/analysis/input.ts';
import { estimatedAge } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('analysis.estimated-age'),
  { params: petParams, query: langQuery },
  ({ params, query, account }, deps) => estimatedAge(analysisDeps(deps), account, params.petId, query),
);
