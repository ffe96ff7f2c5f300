import { petParams } from '../../shared/domain/pets/input.ts';
import { requestReview } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** The owner sends the pet's latest body condition result to a vet: 201 pending, 409 while one is pending. */
export const handler = httpRoute(route('reviews.request'), { params: petParams }, ({ params, account }, deps) =>
  requestReview(deps, account, params.petId),
);
