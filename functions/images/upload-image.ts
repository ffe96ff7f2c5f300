import * as z from 'zod/mini';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import {
  DIRECT_UPLOAD_MAX_BYTES,
  MAX_IMAGE_BREEDS,
  presentUpload,
  uploadPhoto,
} from '../../shared/domain/images/uploads.ts';
import { parseUploadForm } from '../../shared/domain/images/upload-form.ts';
import { badRequest } from '../../shared/errors.ts';
import { list } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { uploadBody } from '../../shared/domain/images/responses.ts';

const fields = z.strictObject({
  sub_id: z.optional(subIdParam),
  breed_ids: z.optional(list({ maxItems: MAX_IMAGE_BREEDS })),
});
const limits = { maxFileBytes: DIRECT_UPLOAD_MAX_BYTES, maxFiles: 1, maxFields: 5, allowedFileFields: ['file'] };

/** multipart/form-data: `file` (one photo), optional `sub_id` and `breed_ids` (comma-separated). */
export const handler = httpRoute(
  route('images.upload'),
  {
    summary: 'Upload a photo (up to 4 MB)',
    description:
      'multipart/form-data: `file` (one photo), optional `sub_id` and `breed_ids` (comma-separated). Checked asynchronously: `status` becomes `approved` or `rejected`. Larger photos (up to 50 MB) take the two-step upload (413 `use_two_step_upload`).',
    errors: [415, 429],
    form: { parse: parseUploadForm, limits, fields },
    response: uploadBody,
  },
  async ({ form, account }, deps) => {
    const file = form.files[0];
    if (!file) throw badRequest(['file is required']);
    return presentUpload(await uploadPhoto(deps, account, file, form.fields), deps.config.mediaBaseUrl);
  },
);
