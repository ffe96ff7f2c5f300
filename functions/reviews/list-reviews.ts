import { reviewQueueQuery } from '../../shared/domain/reviews/input.ts';
import { listPendingReviews } from '../../shared/domain/reviews/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { reviewQueueList } from '../../shared/domain/reviews/responses.ts';

/** The vets' queue: pending reviews of every account, oldest request first. */
export const handler = httpRoute(
  route('reviews.queue'),
  {
    summary: "The vets' queue of pending reviews",
    description: "Pending reviews of every account, oldest request first, each with its pet's name and species.",
    query: reviewQueueQuery,
    response: reviewQueueList,
  },
  ({ query }, deps) => listPendingReviews(deps, query),
);
