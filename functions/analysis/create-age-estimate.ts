import { analysisDeps } from '../../shared/adapters/vision-model/index.ts';
import { langQuery } from '../../shared/domain/analysis/input.ts';
import { estimatedAge } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { PHOTO_WAIT_DOC } from '../../shared/domain/pets/photo-wait.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { estimatedAgeBody } from '../../shared/domain/analysis/responses.ts';

export const handler = httpRoute(
  route('analysis.estimated-age'),
  {
    summary: 'Estimated age',
    description: `Runs on the pet's newest photos (at most 4) and is cached per pet and request: a repeat answers \`cached: true\` without asking the model; a new photo asks again. Without a configured model: 503 \`analysis_unavailable\`. ${PHOTO_WAIT_DOC}`,
    errors: [422, 503],
    params: petParams,
    query: langQuery,
    response: estimatedAgeBody,
  },
  ({ params, query, account, timeLeftMs }, deps) =>
    estimatedAge(analysisDeps(deps), account, params.petId, { ...query, timeLeftMs: timeLeftMs() }),
);
