import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookAttemptsPartition } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/list-webhook-deliveries.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('GET /v1/webhooks/{id}/deliveries', () => {
  const attempt = (n: number) => ({
    id: `att-${n}`,
    webhook_id: 'wh-1',
    event_id: `evt_${n}`,
    event_type: 'vote.created',
    attempt: 1,
    attempted_at: `2026-11-2${n}T00:00:00.000Z`,
    status_code: n === 1 ? null : 200,
    error: n === 1 ? 'no reply within 5000 ms' : null,
    duration_ms: 12,
    succeeded: n !== 1,
  });
  const list = (id: string, query?: Record<string, string>) =>
    call(handler, { path: `/v1/webhooks/${id}/deliveries`, pathParameters: { id }, query });

  it('pages the attempt log newest first', async () => {
    ddb.on(QueryCommand).resolves({ Items: [attempt(4), attempt(3), attempt(2), attempt(1)] });

    const body = jsonBody(await list('wh-1', { limit: '2', page: '1' }));

    expect(body.map((a: { id: string }) => a.id)).toEqual(['att-2', 'att-1']);
    expect(body[1]).toEqual({
      id: 'att-1',
      event_id: 'evt_1',
      event_type: 'vote.created',
      attempt: 1,
      attempted_at: '2026-11-21T00:00:00.000Z',
      status_code: null,
      error: 'no reply within 5000 ms',
      duration_ms: 12,
      succeeded: false,
    });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ScanIndexForward: false,
      ExpressionAttributeValues: { ':partition': webhookAttemptsPartition('wh-1') },
    });
  });

  it('answers 404 for an unknown endpoint', async () => {
    expect(jsonBody(await list('wh-missing'))).toMatchObject({ statusCode: 404 });
  });

  it('refuses a limit outside 1-100', async () => {
    expect(jsonBody(await list('wh-1', { limit: '0' }))).toMatchObject({
      statusCode: 400,
      message: ['limit must be at least 1'],
    });
  });
});
