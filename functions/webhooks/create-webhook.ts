import { createWebhookBody } from '../../shared/domain/webhooks/input.ts';
import { createWebhook } from '../../shared/domain/webhooks/endpoints.ts';
import { presentWebhook } from '../../shared/domain/webhooks/webhook.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { secretCipherFor } from '../../shared/adapters/secret-cipher/index.ts';
import { createdWebhookBody } from '../../shared/domain/webhooks/responses.ts';

/** The signing secret is shown here and on rotation only; it is stored encrypted and never read back. */
export const handler = httpRoute(
  route('webhooks.create'),
  {
    summary: 'Register a webhook endpoint',
    description:
      'At most 5 endpoints per account, disabled ones included. The signing secret is shown here and on rotation only.',
    body: createWebhookBody,
    response: createdWebhookBody,
  },
  async ({ body, account }, deps) => {
    const { webhook, signingSecret } = await createWebhook(deps, secretCipherFor(deps.config), account.id, body);
    return { ...presentWebhook(webhook), signing_secret: signingSecret };
  },
);
