// What the images routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import {
  catalogueImageBody,
  imageSearchResult,
  successMessage,
  uploadBody,
  uploadSlotBody,
} from '../../shared/domain/images/responses.ts';
import {
  publicRequestBody,
  publicRequestList,
  publicRequestStatusBody,
} from '../../shared/domain/public-requests/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { imagesRoutes } from './routes.ts';

export const imagesResponses = {
  'images.search': z.array(imageSearchResult),
  'images.upload': uploadBody,
  'images.create-upload': uploadSlotBody,
  'images.list': z.array(uploadBody),
  'images.get': z.union([uploadBody, catalogueImageBody]),
  'images.delete': successMessage,
  'images.public-request-create': publicRequestBody,
  'images.public-request-status': publicRequestStatusBody,
  'images.public-request-withdraw': successMessage,
  'images.public-requests-queue': publicRequestList,
  'images.public-request-approve': publicRequestBody,
  'images.public-request-deny': publicRequestBody,
} satisfies ResponseSchemas<typeof imagesRoutes>;
