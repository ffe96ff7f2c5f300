// What the reviews routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import { reviewBody, reviewForVetBody, reviewList } from '../../shared/domain/reviews/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { reviewsRoutes } from './routes.ts';

export const reviewsResponses = {
  'reviews.request': reviewBody,
  'reviews.list-for-pet': reviewList,
  'reviews.queue': reviewList,
  'reviews.get': reviewForVetBody,
  'reviews.complete': reviewBody,
  'reviews.reject': reviewBody,
} satisfies ResponseSchemas<typeof reviewsRoutes>;
