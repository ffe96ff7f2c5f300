import { deliveryLogQuery, webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { listDeliveryAttempts, presentAttempt } from '../../shared/domain/webhooks/attempts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { deliveryAttemptList } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.deliveries'),
  {
    summary: 'Delivery attempts of an endpoint',
    description: "Every attempt, newest first, with the receiver's status and how long it took.",
    params: webhookIdParams,
    query: deliveryLogQuery,
    response: deliveryAttemptList,
  },
  async ({ params, query, account }, deps) =>
    (await listDeliveryAttempts(deps, account.id, params.id, query)).map(presentAttempt),
);
