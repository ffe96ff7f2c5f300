import { petParams } from '../../shared/domain/pets/params.ts';
import { petReviewsQuery } from '../../shared/domain/reviews/input.ts';
import { listPetReviews } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { reviewList } from '../../shared/domain/reviews/responses.ts';

/** The pet's reviews, oldest first by default; `Pagination-Count` carries the total. */
export const handler = httpRoute(
  route('reviews.list-for-pet'),
  {
    summary: "A pet's body condition reviews",
    description: 'Oldest first by default.',
    headers: ['pagination-count'],
    params: petParams,
    query: petReviewsQuery,
    response: reviewList,
  },
  async ({ params, query, account }, deps) => {
    const { reviews, total } = await listPetReviews(deps, account, params.petId, query);
    return withHeaders(reviews, { 'pagination-count': String(total) });
  },
);
