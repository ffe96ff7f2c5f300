import { reviewBody } from '../../shared/domain/reviews/responses.ts';
import { reviewParams } from '../../shared/domain/reviews/input.ts';
import { getReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('reviews.get'),
  { summary: 'One review', response: reviewBody, params: reviewParams },
  ({ params }, deps) => getReview(deps, params.id),
);
