import { webhookIdParams } from '../../shared/domain/webhook-input.ts';
import { deleteWebhook } from '../../shared/domain/webhooks.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(
  route('webhooks.delete'),
  { params: webhookIdParams },
  async ({ params, account }, deps) => {
    await deleteWebhook(deps, account.id, params.id);
    return { message: 'SUCCESS', id: params.id };
  },
);
