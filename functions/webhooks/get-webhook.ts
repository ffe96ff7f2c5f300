import { webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { getOwnWebhook } from '../../shared/domain/webhooks/endpoints.ts';
import { presentWebhook } from '../../shared/domain/webhooks/webhook.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { webhookBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.get'),
  { summary: 'One webhook endpoint', params: webhookIdParams, response: webhookBody },
  async ({ params, account }, deps) => presentWebhook(await getOwnWebhook(deps, account.id, params.id)),
);
