// The spec's error JSON as schemas, for the OpenAPI document and the response checks of the integration tests.
// `errorResponse` (responses.ts) builds exactly this shape.
import * as z from 'zod/mini';
import { documented } from '../schema/api-docs.ts';

const errorFields = {
  statusCode: documented(z.int(), { description: 'The HTTP status, repeated.' }),
  timestamp: documented(z.iso.datetime(), { description: 'When the error happened (ISO 8601, UTC).' }),
  path: documented(z.string(), { description: 'The request path.' }),
  message: documented(z.union([z.string(), z.array(z.string())]), {
    description:
      'What went wrong; validation errors list one message per problem (at most 20, then a count of the rest).',
  }),
  error: documented(z.string(), { description: 'The status reason phrase, e.g. `Bad Request`.' }),
  code: z.optional(
    documented(z.string(), {
      description: 'Stable machine-readable reason (e.g. `invalid_api_key`, `feature_not_enabled`); branch on this.',
    }),
  ),
};

/** Every 4xx and 5xx body; some codes add their own fields (e.g. `limit`), hence open. */
export const errorBody = documented(z.looseObject(errorFields), {
  id: 'Error',
  description:
    "The spec's error record, for every 4xx and 5xx. Some codes add fields: `problem_count` (more than 20 validation problems), `limit` (`webhook_limit_reached`), `accepted` (`unsupported_format`), `reason` (`analysis_unavailable`), `favourite_id` (`favourite_exists`).",
});

/** 429 `pet_upload_rate_exceeded`: the spec's per-pet photo rate, with the numbers behind it. */
export const uploadRateExceededBody = documented(
  z.object({
    ...errorFields,
    code: z.literal('pet_upload_rate_exceeded'),
    limit: documented(z.int(), { description: 'New photos a pet takes per window (100).' }),
    window_hours: documented(z.int(), { description: 'The sliding window (24 hours).' }),
    recent_uploads: documented(z.int(), { description: 'New photos of this pet inside the window.' }),
    requested: documented(z.int(), { description: 'New photos this request would add.' }),
  }),
  {
    id: 'UploadRateExceeded',
    description:
      'A pet takes at most 100 new photos per 24 hours. `Retry-After` says in how many seconds enough slots free up (absent when the request alone exceeds the limit).',
  },
);
