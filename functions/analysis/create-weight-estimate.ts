import { analysisDeps } from '../../shared/adapters/vision-model/index.ts';
import { estimatedWeightQuery } from '../../shared/domain/analysis/input.ts';
import { estimatedWeight } from '../../shared/domain/analysis/service.ts';
import { petParams } from '../../shared/domain/pets/params.ts';
import { PHOTO_WAIT_DOC } from '../../shared/domain/pets/photo-wait.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { estimatedWeightBody } from '../../shared/domain/analysis/responses.ts';

export const handler = httpRoute(
  route('analysis.estimated-weight'),
  {
    summary: 'Estimated weight',
    description: `The model's estimate combined with the breed standard and the latest body condition score. Without a model, the breed standard alone (\`method: breed_standard\`) when the pet has a breed; otherwise 503. \`units=imperial\` adds the weights in pounds (\`weight_lb\`, \`weight_range_lb\`, \`breed_standard_lb\`, \`model_weight_lb\`, to 0.1 lb). ${PHOTO_WAIT_DOC}`,
    errors: [422, 503],
    params: petParams,
    query: estimatedWeightQuery,
    response: estimatedWeightBody,
  },
  ({ params, query, account, timeLeftMs }, deps) =>
    estimatedWeight(analysisDeps(deps), account, params.petId, { ...query, timeLeftMs: timeLeftMs() }),
);
