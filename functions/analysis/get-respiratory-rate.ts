import { measurementParams, measurementReadQuery } from '../../shared/domain/respiration/input.ts';
import { presentMeasurement } from '../../shared/domain/respiration/measurement.ts';
import { getRespiratoryRate } from '../../shared/domain/respiration/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { measurementBody } from '../../shared/domain/respiration/responses.ts';

/** One measurement: processing, completed with the rate, or failed with the reason. */
export const handler = httpRoute(
  route('analysis.respiratory-rate-get'),
  {
    summary: 'One respiratory-rate measurement',
    description:
      "Processing, completed with the rate, or failed with the reason. `lang` asks for the disclaimer in another language than the request's.",
    params: measurementParams,
    query: measurementReadQuery,
    response: measurementBody,
  },
  async ({ params, query, account }, deps) =>
    presentMeasurement(await getRespiratoryRate(deps, account, params.petId, params.measurementId), query.lang),
);
