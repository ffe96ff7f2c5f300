// The multipart parser of the pet upload routes, with the way forward for files too large for a direct request.
import { parseMultipartOrTwoStep } from '../../media/multipart.ts';

/**
 * What fits through API Gateway (10 MB) and Lambda (6 MB request, base64: ~4.4 MB of files) with room for the
 * multipart envelope. Larger photos and every video above it take the two-step upload (docs/decisions.md#pets).
 */
export const DIRECT_PET_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

export const parsePetUploadForm = parseMultipartOrTwoStep(
  'Files',
  'POST /v1/pets/{petId}/uploads (photos up to 50 MB, videos up to 200 MB)',
);
