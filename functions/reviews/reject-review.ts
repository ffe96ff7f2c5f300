import { rejectReviewBody, reviewParams } from '../../shared/domain/reviews/input.ts';
import { decideReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** A vet declines to review (the reason tells the owner why); 409 once it is decided. */
export const handler = httpRoute(
  route('reviews.reject'),
  { params: reviewParams, body: rejectReviewBody },
  ({ params, body, account }, deps) => decideReview(deps, account, params.id, { status: 'rejected', ...body }),
);
