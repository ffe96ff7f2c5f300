import * as z from 'zod/mini';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { createUploadSlot, MAX_PHOTO_BYTES, presentUpload } from '../../shared/domain/images/uploads.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { uploadSlotBody } from '../../shared/domain/images/responses.ts';

// Any bounded content_type passes validation: the service answers one outside the accepted list with 415 naming it,
// as the pets' two-step upload does.
const body = z.strictObject({
  content_type: text({ max: 255 }),
  size: z.int().check(z.gte(1), z.lte(MAX_PHOTO_BYTES)),
  filename: z.optional(text({ max: 255 })),
  sub_id: z.optional(subIdParam),
  breed_ids: z.optional(z.array(text({ max: 100 })).check(z.maxLength(10))),
});

/** Step one of a large upload: a presigned PUT URL for exactly `size` bytes of `content_type`, valid 15 minutes. */
export const handler = httpRoute(
  route('images.create-upload'),
  {
    summary: 'Start a two-step upload (large photos)',
    description:
      'Step one: a presigned PUT URL for exactly `size` bytes of `content_type`, valid 15 minutes. Counts against the monthly quota. A `content_type` outside the accepted photo types is 415 `unsupported_format` with the `accepted` list.',
    errors: [415],
    body,
    response: uploadSlotBody,
  },
  async ({ body, account }, deps) => {
    const slot = await createUploadSlot(deps, account, body);
    return {
      ...presentUpload(slot.upload, deps.config.mediaBaseUrl),
      upload: { method: slot.method, url: slot.url, headers: slot.headers, expires_at: slot.expires_at },
    };
  },
);
