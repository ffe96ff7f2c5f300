import { webhookEventParams } from '../../shared/domain/webhooks/input.ts';
import { redeliverEvent } from '../../shared/domain/webhooks/operator-actions.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('webhooks.redeliver'),
  { params: webhookEventParams },
  async ({ params, account }, deps) => {
    const event = await redeliverEvent(deps, account.id, params.id, params.eventId);
    return { message: 'QUEUED', id: params.id, event_id: event.id, event_type: event.event_type };
  },
);
