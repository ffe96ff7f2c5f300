import { analysisDeps } from '../../shared/adapters/vision/index.ts';
import { langQuery } from '../../shared/domain/analysis/input.ts';
import { genealogy } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('analysis.genealogy'),
  { params: petParams, query: langQuery },
  ({ params, query, account }, deps) => genealogy(analysisDeps(deps), account, params.petId, query),
);
