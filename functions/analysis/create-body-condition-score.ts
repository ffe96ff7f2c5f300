import { analysisDeps } from '../../shared/adapters/vision-model/index.ts';
import { bodyConditionQuery } from '../../shared/domain/analysis/input.ts';
import { bodyConditionScore } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { PHOTO_WAIT_DOC } from '../../shared/domain/pets/photo-wait.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { bodyConditionBody } from '../../shared/domain/analysis/responses.ts';

export const handler = httpRoute(
  route('analysis.body-condition-score'),
  {
    summary: 'Body condition score (WSAVA 1–9)',
    description: `Runs on the pet's newest photos (at most 4) and is cached per pet and request: a repeat answers \`cached: true\` without asking the model; a new photo asks again. Without a configured model: 503 \`analysis_unavailable\`. ${PHOTO_WAIT_DOC}`,
    errors: [422, 503],
    params: petParams,
    query: bodyConditionQuery,
    response: bodyConditionBody,
  },
  ({ params, query, account, timeLeftMs }, deps) =>
    bodyConditionScore(analysisDeps(deps), account, params.petId, {
      lang: query.lang,
      season: query.season,
      country: query.country,
      compareVersion: query.compare_version,
      timeLeftMs: timeLeftMs(),
    }),
);
