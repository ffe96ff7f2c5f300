import { listWebhooks } from '../../shared/domain/webhooks/endpoints.ts';
import { presentWebhook } from '../../shared/domain/webhooks/webhook.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('webhooks.list'),
  { summary: 'Your webhook endpoints' },
  async ({ account }, deps) => (await listWebhooks(deps, account.id)).map(presentWebhook),
);
