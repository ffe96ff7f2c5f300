import { listWebhooks } from '../../shared/domain/webhooks/endpoints.ts';
import { presentWebhook } from '../../shared/domain/webhooks/webhook.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { webhookBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.list'),
  { summary: 'Your webhook endpoints', response: z.array(webhookBody) },
  async ({ account }, deps) => (await listWebhooks(deps, account.id)).map(presentWebhook),
);
