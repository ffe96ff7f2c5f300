import { completeReviewBody, reviewParams } from '../../shared/domain/reviews/input.ts';
import { decideReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** A vet's score (1–9) and notes on a pending review; 409 once it is decided. */
export const handler = httpRoute(
  route('reviews.complete'),
  { params: reviewParams, body: completeReviewBody },
  ({ params, body, account }, deps) => decideReview(deps, account, params.id, { status: 'completed', ...body }),
);
