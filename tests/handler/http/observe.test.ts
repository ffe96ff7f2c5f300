import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/update-account.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { callbackLogger, type LogFields } from '../../../shared/log.ts';
import { ADMIN_KEY, anAccount, mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { httpEvent, lambdaContext } from '../../support/http-event.ts';
import { captureMetricLines } from '../../support/metric-lines.ts';

interface Entry {
  level: string;
  message: string;
  fields: LogFields;
  keys: LogFields;
}

const patch = (headers: Record<string, string>) =>
  handler(
    httpEvent({
      method: 'PATCH',
      path: '/v1/accounts/acc-user',
      pathParameters: { accountId: 'acc-user' },
      headers,
      body: { name: 'Renamed' },
    }),
    lambdaContext,
  );

describe('the pipeline observes every request', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  let entries: Entry[];
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    entries = [];
    setDepsForTest({
      log: callbackLogger((level, message, fields, keys) => entries.push({ level, message, fields, keys })),
    });
  });

  it('writes one access line with method, path, status and milliseconds, keyed by request, route and account', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { pk: 'ACCOUNT#acc-user', ...anAccount({ name: 'Renamed' }) } });

    await patch({ 'x-api-key': ADMIN_KEY });

    const access = entries.filter((e) => e.fields.status !== undefined);
    expect(access).toHaveLength(1);
    expect(access[0]!.message).toMatch(/^PATCH \/v1\/accounts\/acc-user 200 \d+ ms$/);
    expect(access[0]!.fields).toMatchObject({ method: 'PATCH', path: '/v1/accounts/acc-user', status: 200 });
    expect(access[0]!.keys).toEqual({ request_id: 'req-1', route: 'accounts.update', account_id: 'acc-admin' });
  });

  it('keys an unauthenticated request without an account, and never logs the API key', async () => {
    await patch({ 'x-api-key': 'live_not-a-known-key' });

    const access = entries.find((e) => e.fields.status !== undefined)!;
    expect(access.fields.status).toBe(403);
    expect(access.keys).toEqual({ request_id: 'req-1', route: 'accounts.update' });
    expect(JSON.stringify(entries)).not.toContain('live_not-a-known-key');
  });

  it('logs a crash with the same keys as the 500 it answers', async () => {
    ddb.on(UpdateCommand).rejects(new Error('socket hang up'));

    await patch({ 'x-api-key': ADMIN_KEY });

    const crash = entries.find((e) => e.level === 'ERROR')!;
    expect(crash.message).toBe('unhandled error');
    expect(crash.keys).toEqual({ request_id: 'req-1', route: 'accounts.update', account_id: 'acc-admin' });
    expect(entries.find((e) => e.fields.status !== undefined)!.fields.status).toBe(500);
    expect(JSON.stringify(entries)).not.toContain(ADMIN_KEY);
  });

  describe('with metrics on', () => {
    const lines = captureMetricLines();

    it('counts the request by route and status class in CloudWatch embedded metric format', async () => {
      await patch({ 'x-api-key': 'live_not-a-known-key' });

      const metrics = lines()
        .filter((line) => line.includes('"_aws"'))
        .map((line) => JSON.parse(line));
      expect(metrics).toHaveLength(1);
      expect(metrics[0]).toMatchObject({ route: 'accounts.update', status_class: '4xx', Requests: 1 });
      expect(metrics[0]._aws.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'PetApi',
        Dimensions: [expect.arrayContaining(['route', 'status_class'])],
        Metrics: [{ Name: 'Requests', Unit: 'Count' }],
      });
    });
  });
});
