import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonBody } from '../../support/http-event.ts';
import { handler } from '../../../functions/webhooks/list-webhooks.ts';
import { call, mockWebhookRoutes, storedWebhook } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('GET /v1/webhooks', () => {
  it("lists the caller's endpoints without any secret", async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acc-user#WEBHOOKS' } })
      .resolves({ Items: [storedWebhook()] });

    const body = jsonBody(await call(handler, { path: '/v1/webhooks' }));

    expect(body).toEqual([
      {
        id: 'wh-1',
        url: 'https://hooks.example.com/pets',
        description: 'votes to our CRM',
        enabled_events: ['vote.created'],
        status: 'enabled',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        consecutive_failures: 0,
      },
    ]);
  });
});
