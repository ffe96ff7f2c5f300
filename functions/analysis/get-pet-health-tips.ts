import { analysisDeps } from '../../shared/adapters/vision-model/index.ts';
import { petHealthTips } from '../../shared/domain/analysis/health-tips.ts';
import { healthTipsQuery } from '../../shared/domain/analysis/input.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { PHOTO_WAIT_DOC } from '../../shared/domain/pets/photo-wait.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { petHealthTipsBody } from '../../shared/domain/analysis/responses.ts';

export const handler = httpRoute(
  route('analysis.health-tips'),
  {
    summary: 'Health tips for the pet',
    description: `Catalogue tips for its breed and life stage, plus tips a model writes from the photos and earlier analyses (fixed rules without a model). ${PHOTO_WAIT_DOC}`,
    errors: [409, 422, 503],
    params: petParams,
    query: healthTipsQuery,
    response: petHealthTipsBody,
  },
  ({ params, query, account, timeLeftMs }, deps) =>
    petHealthTips(analysisDeps(deps), account, params.petId, {
      lang: query.lang,
      includeSeeded: query.include_seeded,
      includeSources: query.include_sources,
      timeLeftMs: timeLeftMs(),
    }),
);
