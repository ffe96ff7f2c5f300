import * as z from 'zod/mini';
import { presentMeasurement } from '../../shared/domain/respiration/measurement.ts';
import { getRespiratoryRate } from '../../shared/domain/respiration/service.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { measurementBody } from '../../shared/domain/respiration/responses.ts';

const params = z.strictObject({ petId: text({ max: 40 }), measurementId: text({ max: 40 }) });

/** One measurement: processing, completed with the rate, or failed with the reason. */
export const handler = httpRoute(
  route('analysis.respiratory-rate-get'),
  {
    summary: 'One respiratory-rate measurement',
    description: 'Processing, completed with the rate, or failed with the reason.',
    params,
    response: measurementBody,
  },
  async ({ params, account }, deps) =>
    presentMeasurement(await getRespiratoryRate(deps, account, params.petId, params.measurementId)),
);
