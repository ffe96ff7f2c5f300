import { reviewParams } from '../../shared/domain/reviews/input.ts';
import { getReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { reviewForVetBody } from '../../shared/domain/reviews/responses.ts';

export const handler = httpRoute(
  route('reviews.get'),
  {
    summary: 'One review, with the pet and the analysed photos',
    description: "For vets: the review, the pet's profile and the photos the analysis saw (signed URLs).",
    params: reviewParams,
    response: reviewForVetBody,
  },
  ({ params }, deps) => getReview(deps, params.id),
);
