// What the public-library routes answer, as schemas: the handlers' contracts and the OpenAPI document use these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { publicRequestResource } from './request.ts';

export const publicRequestBody = documented(publicRequestResource, {
  id: 'PublicImageRequest',
  description:
    'A request to make an upload public: `pending`, then `approved` (with the tags it is searched by) or `denied` (`admin_message` says why). Also the body of the image.public_request.* events.',
});

export const publicRequestList = z.array(publicRequestBody);

/** GET /images/{imageId}/public-requests/status: the latest request, or `none` if the image was never put forward. */
export const publicRequestStatusBody = documented(
  z.union([publicRequestBody, z.object({ image_id: z.string(), status: z.literal('none') })]),
  { id: 'PublicImageRequestStatus' },
);
