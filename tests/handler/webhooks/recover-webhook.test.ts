import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getRecovery } from '../../../functions/webhooks/get-webhook-recovery.ts';
import { handler } from '../../../functions/webhooks/recover-webhook.ts';
import {
  webhookAttemptsPartition,
  webhookEventAttemptsPartition,
  webhookKey,
  webhookRecoveredEventKey,
  webhookRecoveryKey,
} from '../../../shared/db/keys.ts';
import { MAX_RECOVERY_EVENTS } from '../../../shared/domain/webhooks/recoveries.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, NEW_ID, NOW, sqs, storedWebhook } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
  ddb.on(PutCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

const recover = (body: unknown, id = 'wh-1') =>
  call(handler, { method: 'POST', path: `/v1/webhooks/${id}/recover`, pathParameters: { id }, body });

const HOUR = 3_600_000;
const since = new Date(NOW.getTime() - 6 * HOUR).toISOString();

const event = (id: string, type = 'vote.created') => ({
  id,
  event_type: type,
  account_id: 'acc-user',
  occurred_at: since,
  country_code: null,
  resource: { id },
});
const failedAttempt = (eventId: string, type = 'vote.created') => ({
  id: `att-${eventId}`,
  webhook_id: 'wh-1',
  event_id: eventId,
  event_type: type,
  succeeded: false,
  event: event(eventId, type),
});

/** The endpoint's log in the window serves `attempts`; events listed in `deliveredLater` have a success. */
function logHolds(attempts: Record<string, unknown>[], deliveredLater: string[] = []) {
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':partition': webhookAttemptsPartition('wh-1') } })
    .resolves({ Items: attempts });
  ddb.on(QueryCommand, { Select: 'COUNT' }).callsFake((input) => ({
    Count: deliveredLater.some(
      (eventId) => input.ExpressionAttributeValues[':pk'] === webhookEventAttemptsPartition('wh-1', eventId),
    )
      ? 1
      : 0,
  }));
}

const queuedJobs = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) => c.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));

describe('POST /v1/webhooks/{id}/recover', () => {
  it('queues each event whose attempts all failed once, skipping ones delivered later, recovered or unsubscribed', async () => {
    logHolds(
      [
        failedAttempt('evt_1'),
        { ...failedAttempt('evt_1'), id: 'att-evt_1-2' },
        failedAttempt('evt_2'),
        failedAttempt('evt_3'),
        failedAttempt('evt_4', 'favourite.created'),
      ],
      ['evt_2'],
    );
    ddb.on(BatchGetCommand).callsFake((input) => ({
      Responses: { [Object.keys(input.RequestItems)[0]!]: [webhookRecoveredEventKey('wh-1', 'evt_3')] },
    }));

    const response = await recover({ since });

    expect(response).toMatchObject({ statusCode: 202 });
    expect(jsonBody(response)).toEqual({
      id: `rcv_${NEW_ID}`,
      webhook_id: 'wh-1',
      to_endpoint_id: 'wh-1',
      since,
      until: NOW.toISOString(),
      created_at: NOW.toISOString(),
      state: 'running',
      queued: 1,
      delivered: 0,
      failed: 0,
      skipped_unsubscribed: 1,
    });
    expect(queuedJobs()).toEqual([
      { webhook_id: 'wh-1', attempt: 1, event: event('evt_1'), recovery: { id: `rcv_${NEW_ID}`, webhook_id: 'wh-1' } },
    ]);
    const marks = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(marks.map((m) => m.Item!.pk)).toContain(webhookRecoveredEventKey('wh-1', 'evt_1').pk);
    expect(marks.find((m) => m.Item!.pk === webhookRecoveryKey('wh-1', `rcv_${NEW_ID}`).pk)?.Item).toMatchObject({
      queued: 1,
    });
  });

  it('leaves an event another recovery marked meanwhile to that one', async () => {
    logHolds([failedAttempt('evt_1'), failedAttempt('evt_2')]);
    ddb.on(BatchGetCommand).resolves({ Responses: {} });
    ddb.on(PutCommand, { Item: webhookRecoveredEventKey('wh-1', 'evt_2') }).rejects(conditionalCheckFailed());

    expect(jsonBody(await recover({ since }))).toMatchObject({ queued: 1 });
    expect(queuedJobs().map((job) => job.event.id)).toEqual(['evt_1']);
  });

  it('sends a disabled endpoint’s failed events to the enabled endpoint named by to_endpoint_id', async () => {
    ddb
      .on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') })
      .resolves({ Item: storedWebhook({ status: 'disabled' }) });
    ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-2') }).resolves({ Item: storedWebhook({ id: 'wh-2' }) });
    logHolds([failedAttempt('evt_1')]);
    ddb.on(BatchGetCommand).resolves({ Responses: {} });

    expect(jsonBody(await recover({ since, to_endpoint_id: 'wh-2' }))).toMatchObject({
      webhook_id: 'wh-1',
      to_endpoint_id: 'wh-2',
      queued: 1,
    });
    expect(queuedJobs()).toMatchObject([{ webhook_id: 'wh-2', recovery: { webhook_id: 'wh-1' } }]);
  });

  it('refuses a window holding more failed events than one recovery takes, queueing nothing', async () => {
    logHolds(Array.from({ length: MAX_RECOVERY_EVENTS + 1 }, (_, n) => failedAttempt(`evt_${n}`)));

    expect(jsonBody(await recover({ since }))).toMatchObject({ statusCode: 400, code: 'recovery_too_large' });
    expect(queuedJobs()).toEqual([]);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  describe('input rules (the spec’s error JSON, nothing queued)', () => {
    const days = (n: number) => new Date(NOW.getTime() - n * 24 * HOUR).toISOString();
    it.each([
      ['no since', {}, 400],
      ['since not a time', { since: 'yesterday' }, 400],
      ['since without an offset', { since: '2026-11-22T04:00:00' }, 400],
      ['since after until', { since, until: days(1) }, 400],
      ['since equal to until', { since, until: since }, 400],
      ['until in the future', { since, until: new Date(NOW.getTime() + HOUR).toISOString() }, 400],
      ['since in the future', { since: new Date(NOW.getTime() + HOUR).toISOString() }, 400],
      ['a window reaching past the 30-day log', { since: days(31) }, 400],
      ['an unknown field', { since, page: 2 }, 400],
      ['an unknown target endpoint', { since, to_endpoint_id: 'wh-9' }, 404],
    ])('%s', async (_, body, statusCode) => {
      const answer = jsonBody(await recover(body));
      expect(answer).toMatchObject({ statusCode, error: expect.any(String), message: expect.anything() });
      expect(queuedJobs()).toEqual([]);
    });

    it('answers 404 for an endpoint of another account or none', async () => {
      expect(jsonBody(await recover({ since }, 'wh-9'))).toMatchObject({ statusCode: 404 });
    });

    it('answers 409 for a disabled endpoint without a target, and for a disabled target', async () => {
      ddb
        .on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') })
        .resolves({ Item: storedWebhook({ status: 'disabled' }) });
      expect(jsonBody(await recover({ since }))).toMatchObject({ statusCode: 409, code: 'webhook_disabled' });
      ddb.on(GetCommand, { Key: webhookKey('acc-user', 'wh-1') }).resolves({ Item: storedWebhook() });
      ddb
        .on(GetCommand, { Key: webhookKey('acc-user', 'wh-2') })
        .resolves({ Item: storedWebhook({ id: 'wh-2', status: 'disabled' }) });
      expect(jsonBody(await recover({ since, to_endpoint_id: 'wh-2' }))).toMatchObject({ statusCode: 409 });
      expect(queuedJobs()).toEqual([]);
    });

    it('accepts a window of exactly 30 days', async () => {
      logHolds([]);
      ddb.on(BatchGetCommand).resolves({ Responses: {} });
      expect(await recover({ since: days(30) })).toMatchObject({ statusCode: 202 });
    });
  });
});

describe('GET /v1/webhooks/{id}/recoveries/{recoveryId}', () => {
  const show = (recoveryId: string) =>
    call(getRecovery, {
      path: `/v1/webhooks/wh-1/recoveries/${recoveryId}`,
      pathParameters: { id: 'wh-1', recoveryId },
    });

  it('shows the progress, completed once every queued event ended', async () => {
    const stored = {
      ...webhookRecoveryKey('wh-1', 'rcv_1'),
      id: 'rcv_1',
      webhook_id: 'wh-1',
      to_endpoint_id: 'wh-1',
      since,
      until: NOW.toISOString(),
      created_at: NOW.toISOString(),
      queued: 3,
      skipped_unsubscribed: 0,
      delivered: 2,
      failed: 0,
    };
    ddb.on(GetCommand, { Key: webhookRecoveryKey('wh-1', 'rcv_1') }).resolves({ Item: stored });
    expect(jsonBody(await show('rcv_1'))).toMatchObject({ state: 'running', queued: 3, delivered: 2, failed: 0 });
    ddb.on(GetCommand, { Key: webhookRecoveryKey('wh-1', 'rcv_1') }).resolves({ Item: { ...stored, failed: 1 } });
    expect(jsonBody(await show('rcv_1'))).toMatchObject({ state: 'completed', failed: 1 });
  });

  it('answers 404 for an unknown recovery', async () => {
    expect(jsonBody(await show('rcv_none'))).toMatchObject({ statusCode: 404 });
  });
});
