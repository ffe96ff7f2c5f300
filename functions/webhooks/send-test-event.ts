import { webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { sendTestEvent } from '../../shared/domain/webhooks/operator-actions.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('webhooks.test'),
  { params: webhookIdParams },
  async ({ params, account }, deps) => {
    const event = await sendTestEvent(deps, account.id, params.id);
    return { message: 'QUEUED', id: params.id, event_id: event.id, event_type: event.event_type };
  },
);
