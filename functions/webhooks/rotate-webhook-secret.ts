import { webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { rotateWebhookSecret } from '../../shared/domain/webhooks/endpoints.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { secretCipherFor } from '../../shared/adapters/secret-cipher/index.ts';
import { rotatedSecretBody } from '../../shared/domain/webhooks/responses.ts';

export const handler = httpRoute(
  route('webhooks.rotate-secret'),
  {
    summary: 'Rotate the signing secret',
    description: 'The new secret signs every delivery from now on; shown once.',
    params: webhookIdParams,
    response: rotatedSecretBody,
  },
  async ({ params, account }, deps) => ({
    id: params.id,
    signing_secret: await rotateWebhookSecret(deps, secretCipherFor(deps.config), account.id, params.id),
  }),
);
