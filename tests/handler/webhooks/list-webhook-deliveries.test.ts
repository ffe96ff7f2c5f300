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

  const stored = (n: number) => ({
    ...attempt(n),
    pk: `WHDELIVERY#wh-1#evt_${n}`,
    sk: `ATTEMPT#att-${n}`,
    gsi1pk: webhookAttemptsPartition('wh-1'),
    gsi1sk: `ATTEMPT#att-${n}`,
  });

  it('returns a page newest first with a cursor that starts the next page after its last attempt', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored(4), stored(3), stored(2), stored(1)] });

    const first = await list('wh-1', { limit: '3', status: 'failed', since: '2026-11-01T00:00:00Z' });
    expect(jsonBody(first).map((a: { id: string }) => a.id)).toEqual(['att-4', 'att-3', 'att-2']);
    const cursor = (first as { headers?: Record<string, string> }).headers?.['next-cursor'];
    expect(cursor).toEqual(expect.any(String));

    const second = jsonBody(await list('wh-1', { limit: '3', cursor: String(cursor) }));
    expect(second[0]).toEqual({ ...attempt(4), webhook_id: undefined, response: null });
    const [firstQuery, secondQuery] = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(firstQuery).toMatchObject({
      IndexName: 'gsi1',
      ScanIndexForward: false,
      ExpressionAttributeValues: { ':partition': webhookAttemptsPartition('wh-1'), ':ok': false },
    });
    expect(secondQuery!.ExclusiveStartKey).toEqual({
      pk: 'WHDELIVERY#wh-1#evt_2',
      sk: 'ATTEMPT#att-2',
      gsi1pk: webhookAttemptsPartition('wh-1'),
      gsi1sk: 'ATTEMPT#att-2',
    });
  });

  it("refuses a cursor of another endpoint's log, one it never made, and a window that ends before it starts", async () => {
    const foreign = Buffer.from(
      JSON.stringify({ pk: 'x', sk: 'y', gsi1pk: webhookAttemptsPartition('wh-2'), gsi1sk: 'z' }),
    ).toString('base64url');
    for (const cursor of [foreign, 'not-a-cursor']) {
      expect(jsonBody(await list('wh-1', { cursor }))).toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
    }
    expect(
      jsonBody(await list('wh-1', { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' })),
    ).toMatchObject({ statusCode: 400 });
    expect(jsonBody(await list('wh-1', { since: 'yesterday' }))).toMatchObject({ statusCode: 400 });
  });

  it('cuts a window reaching before 1970 to the times a ULID holds instead of failing with 500', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored(1)] });
    const result = await list('wh-1', { since: '1960-01-01T00:00:00Z', until: '1969-12-31T23:59:59Z' });
    expect((result as { statusCode: number }).statusCode).toBe(200);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ExpressionAttributeValues).toMatchObject({
      ':from': 'ATTEMPT#0000000000',
      ':to': `ATTEMPT#0000000000${'Z'.repeat(16)}`,
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
