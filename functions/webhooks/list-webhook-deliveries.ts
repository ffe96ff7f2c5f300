import { deliveryLogQuery, webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { listDeliveryAttempts, presentAttempt } from '../../shared/domain/webhooks/attempts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import { deliveryAttemptList } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.deliveries'),
  {
    summary: 'Delivery attempts of an endpoint',
    description:
      "Every attempt of the last 30 days (the log's retention, then expired), newest first: the receiver's status, how long it took, a few of its reply headers and the first 4 KiB of its reply. `status`, `event_type`, `since` and `until` narrow the list; `Next-Cursor` continues it (a page may hold fewer than `limit` attempts when a filter is selective).",
    headers: ['next-cursor'],
    params: webhookIdParams,
    query: deliveryLogQuery,
    response: deliveryAttemptList,
  },
  async ({ params, query, account }, deps) => {
    const { attempts, cursor } = await listDeliveryAttempts(deps, account.id, params.id, query);
    return withHeaders(attempts.map(presentAttempt), cursor === undefined ? {} : { 'next-cursor': cursor });
  },
);
