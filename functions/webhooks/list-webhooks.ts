import { listWebhooks, presentWebhook } from '../../shared/domain/webhooks.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('webhooks.list', {}, async ({ account }, deps) =>
  (await listWebhooks(deps, account.id)).map(presentWebhook),
);
