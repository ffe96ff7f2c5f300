import { completeReviewBody, reviewParams } from '../../shared/domain/reviews/input.ts';
import { decideReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { reviewBody } from '../../shared/domain/reviews/responses.ts';

/** A vet's score (1–9) and notes on a pending review; 409 once it is decided. */
export const handler = httpRoute(
  route('reviews.complete'),
  {
    summary: "Complete a review with the vet's score",
    description: 'Score 1–9 (WSAVA) and notes; 409 `review_not_pending` once it is decided.',
    errors: [409, 503],
    params: reviewParams,
    body: completeReviewBody,
    response: reviewBody,
  },
  ({ params, body, account }, deps) => decideReview(deps, account, params.id, { status: 'completed', ...body }),
);
