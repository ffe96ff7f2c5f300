import { webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { deleteWebhook } from '../../shared/domain/webhooks/endpoints.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { deletedWebhookBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.delete'),
  { summary: 'Delete a webhook endpoint', params: webhookIdParams, response: deletedWebhookBody },
  async ({ params, account }, deps) => {
    await deleteWebhook(deps, account.id, params.id);
    return { message: 'SUCCESS' as const, id: params.id };
  },
);
