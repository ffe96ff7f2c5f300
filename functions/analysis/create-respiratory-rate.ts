import { petParams } from '../../shared/domain/pets/params.ts';
import { measurementRequestBody, measurementRequestQuery } from '../../shared/domain/respiration/input.ts';
import { presentMeasurement } from '../../shared/domain/respiration/measurement.ts';
import { requestRespiratoryRate } from '../../shared/domain/respiration/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { measurementBody } from '../../shared/domain/respiration/responses.ts';

/** 202: a measurement of the pet's newest ready video (or the one named), delivered by webhook when finished. */
export const handler = httpRoute(
  route('analysis.respiratory-rate-create'),
  {
    summary: 'Measure the respiratory rate from a video',
    description:
      "202: a measurement of the pet's newest ready video (or `video_id`), finished asynchronously and delivered by webhook (`pet.respiratory_rate.completed`); poll GET /pets/{petId}/respiratory-rate/{measurementId}. `lang` is the language of the result's disclaimer (kept for the webhook).",
    params: petParams,
    query: measurementRequestQuery,
    body: measurementRequestBody,
    response: measurementBody,
  },
  async ({ params, query, body, account }, deps) =>
    presentMeasurement(await requestRespiratoryRate(deps, account, params.petId, { ...body, lang: query.lang })),
);
