// What the review routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../http/api-docs.ts';
import { reviewResource } from './review.ts';

export const reviewBody = documented(reviewResource, {
  id: 'BodyConditionReview',
  description:
    "A vet's check of a pet's body condition result: `pending`, then `completed` (the vet's `score` and `category`) or `rejected` (`reason`). Also the body of the pet.bcs.* events.",
});

export const reviewList = z.array(reviewBody);
