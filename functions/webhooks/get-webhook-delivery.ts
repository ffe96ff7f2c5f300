import { webhookEventParams } from '../../shared/domain/webhooks/input.ts';
import { eventDeliveryAttempts, presentAttempt } from '../../shared/domain/webhooks/attempts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { eventDeliveryBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.delivery'),
  {
    summary: 'Every attempt of one event',
    description:
      "The event's attempts at this endpoint in the last 30 days, oldest first, redeliveries included, each with the receiver's answer.",
    params: webhookEventParams,
    response: eventDeliveryBody,
  },
  async ({ params, account }, deps) => {
    const attempts = await eventDeliveryAttempts(deps, account.id, params.id, params.eventId);
    return {
      event_id: params.eventId,
      event_type: attempts[0]!.event_type,
      delivered: attempts.some((a) => a.succeeded),
      attempts: attempts.map(presentAttempt),
    };
  },
);
