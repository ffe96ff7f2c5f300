import { reviewParams } from '../../shared/domain/reviews/input.ts';
import { getReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(route('reviews.get'), { params: reviewParams }, ({ params }, deps) =>
  getReview(deps, params.id),
);
