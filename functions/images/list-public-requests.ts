import { publicRequestQueueQuery } from '../../shared/domain/public-requests/input.ts';
import { listPendingPublications } from '../../shared/domain/public-requests/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { publicRequestList } from '../../shared/domain/public-requests/responses.ts';

/** The administrators' queue: pending public requests of every account, oldest first. */
export const handler = httpRoute(
  route('images.public-requests-queue'),
  {
    summary: 'Pending public requests (administrators)',
    description: 'Every account’s pending requests, oldest first, each with the image URL to look at.',
    query: publicRequestQueueQuery,
    response: publicRequestList,
  },
  ({ query }, deps) => listPendingPublications(deps, query),
);
