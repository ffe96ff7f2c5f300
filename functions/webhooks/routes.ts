// The webhooks area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';
import type { webhooksResponses } from './responses.ts';

export const webhooksRoutes = [
  // Webhooks (API key; capability `webhooks` on every route that changes or sends)
  {
    id: 'webhooks.topics',
    method: 'GET',
    path: '/webhooks/topics',
    entry: 'webhooks/list-topics',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.create',
    method: 'POST',
    path: '/webhooks',
    entry: 'webhooks/create-webhook',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', webhookSecrets: 'encrypt' },
    status: 200,
    oneTimeSecret: true,
  },
  {
    id: 'webhooks.list',
    method: 'GET',
    path: '/webhooks',
    entry: 'webhooks/list-webhooks',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.get',
    method: 'GET',
    path: '/webhooks/{id}',
    entry: 'webhooks/get-webhook',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.delete',
    method: 'DELETE',
    path: '/webhooks/{id}',
    entry: 'webhooks/delete-webhook',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'webhooks.rotate-secret',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    entry: 'webhooks/rotate-webhook-secret',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', webhookSecrets: 'encrypt' },
    status: 200,
    oneTimeSecret: true,
  },
  {
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    entry: 'webhooks/list-webhook-deliveries',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.test',
    method: 'POST',
    path: '/webhooks/{id}/test',
    entry: 'webhooks/send-test-event',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', sendsTo: 'webhookDeliveries' },
    status: 200,
  },
  {
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/webhooks/{id}/deliveries/{eventId}/redeliver',
    entry: 'webhooks/redeliver-event',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'read', sendsTo: 'webhookDeliveries' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById<typeof webhooksRoutes, typeof webhooksResponses>(webhooksRoutes);
