import { webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { sendTestEvent } from '../../shared/domain/webhooks/operator-actions.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { queuedEventBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.test'),
  { summary: 'Send a test event', errors: [409], params: webhookIdParams, response: queuedEventBody },
  async ({ params, account }, deps) => {
    const event = await sendTestEvent(deps, account.id, params.id);
    return { message: 'QUEUED' as const, id: params.id, event_id: event.id, event_type: event.event_type };
  },
);
