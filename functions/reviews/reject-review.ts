import { rejectReviewBody, reviewParams } from '../../shared/domain/reviews/input.ts';
import { decideReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { reviewBody } from '../../shared/domain/reviews/responses.ts';

/** A vet declines to review (the reason tells the owner why); 409 once it is decided. */
export const handler = httpRoute(
  route('reviews.reject'),
  {
    summary: 'Reject a review',
    description:
      'The reason tells the owner why (e.g. the photos do not show the body); 409 `review_not_pending` once it is decided.',
    errors: [409, 503],
    params: reviewParams,
    body: rejectReviewBody,
    response: reviewBody,
  },
  ({ params, body, account }, deps) => decideReview(deps, account, params.id, { status: 'rejected', ...body }),
);
