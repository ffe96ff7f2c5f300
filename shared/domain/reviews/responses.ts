// What the review routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { petBody, petMediaBody } from '../pets/responses.ts';
import { reviewResource } from './review.ts';

export const reviewBody = documented(reviewResource, {
  id: 'BodyConditionReview',
  description:
    "A vet's check of a pet's body condition result: `pending`, then `completed` (the vet's `score` and `category`) or `rejected` (`reason`). Also the body of the pet.bcs.* events.",
});

export const reviewList = z.array(reviewBody);

/** The vets' queue: each review with enough of its pet to tell the reviews apart. */
export const reviewQueueList = z.array(
  documented(
    z.extend(reviewResource, {
      pet: documented(z.nullable(z.pick(petBody, { name: true, species_id: true })), {
        description: "The pet's name and species; null when the pet is gone.",
      }),
    }),
    { id: 'BodyConditionReviewInQueue' },
  ),
);

/** What a vet sees of one review: the review, the pet's profile and the analysed photos with signed URLs. */
export const reviewForVetBody = documented(
  z.extend(reviewResource, {
    pet: documented(
      z.nullable(
        z.pick(petBody, {
          name: true,
          species_id: true,
          breed_ids: true,
          sex: true,
          neutered: true,
          birth_date: true,
          weight_kg: true,
        }),
      ),
      { description: "The pet's profile; null when the pet is gone." },
    ),
    photos: documented(z.array(petMediaBody), { description: 'The photos the analysis saw, with short-lived URLs.' }),
  }),
  { id: 'BodyConditionReviewForVet' },
);
