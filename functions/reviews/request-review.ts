import { petParams } from '../../shared/domain/pets/params.ts';
import { requestReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { reviewBody } from '../../shared/domain/reviews/responses.ts';

/** The owner sends the pet's latest body condition result to a vet: 201 pending, 409 while one is pending. */
export const handler = httpRoute(
  route('reviews.request'),
  {
    summary: 'Ask a vet to review the body condition score',
    description:
      "Sends the pet's latest body condition result to the vets' queue: 201 pending; 400 `no_body_condition_result` without one; 409 `review_pending` naming the pending review.",
    errors: [409, 503],
    params: petParams,
    response: reviewBody,
  },
  ({ params, account }, deps) => requestReview(deps, account, params.petId),
);
