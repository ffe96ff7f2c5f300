import { webhookEventParams } from '../../shared/domain/webhooks/input.ts';
import { redeliverEvent } from '../../shared/domain/webhooks/operator-actions.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { queuedEventBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.redeliver'),
  {
    summary: 'Send an event again',
    description: 'Queues one more delivery of a stored event to this endpoint.',
    errors: [409],
    params: webhookEventParams,
    response: queuedEventBody,
  },
  async ({ params, account }, deps) => {
    const event = await redeliverEvent(deps, account.id, params.id, params.eventId);
    return { message: 'QUEUED' as const, id: params.id, event_id: event.id, event_type: event.event_type };
  },
);
