import { deliveryLogQuery, webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { listDeliveryAttempts, presentAttempt } from '../../shared/domain/webhooks/attempts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('webhooks.deliveries'),
  { params: webhookIdParams, query: deliveryLogQuery },
  async ({ params, query, account }, deps) =>
    (await listDeliveryAttempts(deps, account.id, params.id, query)).map(presentAttempt),
);
