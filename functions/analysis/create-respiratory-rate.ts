import * as z from 'zod/mini';
import { petParams } from '../../shared/domain/pets/params.ts';
import { presentMeasurement } from '../../shared/domain/respiration/measurement.ts';
import { requestRespiratoryRate } from '../../shared/domain/respiration/service.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { measurementBody } from '../../shared/domain/respiration/responses.ts';

const body = z.strictObject({ video_id: z.optional(text({ max: 40 })) });

/** 202: a measurement of the pet's newest ready video (or the one named), delivered by webhook when finished. */
export const handler = httpRoute(
  route('analysis.respiratory-rate-create'),
  {
    summary: 'Measure the respiratory rate from a video',
    description:
      "202: a measurement of the pet's newest ready video (or `video_id`), finished asynchronously and delivered by webhook (`pet.respiratory_rate.completed`); poll GET /pets/{petId}/respiratory-rate/{measurementId}.",
    params: petParams,
    body,
    response: measurementBody,
  },
  async ({ params, body, account }, deps) =>
    presentMeasurement(await requestRespiratoryRate(deps, account, params.petId, body)),
);
