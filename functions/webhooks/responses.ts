// What the webhooks routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import {
  createdWebhookBody,
  deletedWebhookBody,
  deliveryAttemptList,
  queuedEventBody,
  rotatedSecretBody,
  topicList,
  webhookBody,
} from '../../shared/domain/webhooks/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { webhooksRoutes } from './routes.ts';

export const webhooksResponses = {
  'webhooks.topics': topicList,
  'webhooks.create': createdWebhookBody,
  'webhooks.list': z.array(webhookBody),
  'webhooks.get': webhookBody,
  'webhooks.delete': deletedWebhookBody,
  'webhooks.rotate-secret': rotatedSecretBody,
  'webhooks.deliveries': deliveryAttemptList,
  'webhooks.test': queuedEventBody,
  'webhooks.redeliver': queuedEventBody,
} satisfies ResponseSchemas<typeof webhooksRoutes>;
