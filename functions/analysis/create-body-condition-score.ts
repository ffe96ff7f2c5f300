import { analysisDeps } from '../../shared/adapters/vision/index.ts';
import { bodyConditionQuery } from '../../shared/domain/analysis/input.ts';
import { bodyConditionScore } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/input.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('analysis.body-condition-score'),
  { params: petParams, query: bodyConditionQuery },
  ({ params, query, account }, deps) =>
    bodyConditionScore(analysisDeps(deps), account, params.petId, {
      lang: query.lang,
      season: query.season,
      country: query.country,
      compareVersion: query.compare_version,
    }),
);
