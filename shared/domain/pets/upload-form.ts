// The multipart parser of the pet upload routes, with the way forward for files too large for a direct request.
import { AppError } from '../../errors.ts';
import { parseMultipart } from '../../media/multipart.ts';

/**
 * What fits through API Gateway (10 MB) and Lambda (6 MB request, base64: ~4.4 MB of files) with room for the
 * multipart envelope. Larger photos and every video above it take the two-step upload (docs/decisions.md#pets).
 */
export const DIRECT_PET_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

export const parsePetUploadForm: typeof parseMultipart = (body, contentType, limits) =>
  parseMultipart(body, contentType, limits).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'file_too_large') {
      throw new AppError(
        413,
        `Files over ${limits.maxFileBytes / 1024 / 1024} MB take the two-step upload: POST /v1/pets/{petId}/uploads (photos up to 50 MB, videos up to 200 MB)`,
        { code: 'use_two_step_upload' },
      );
    }
    throw error;
  });
