// The multipart parser of the direct photo upload, apart from the rest of the uploads area so that busboy enters only
// that route's bundle.
import { parseMultipartOrTwoStep } from '../../media/multipart.ts';

export const parseUploadForm = parseMultipartOrTwoStep('Photos', 'POST /v1/images/uploads (up to 50 MB)');
