import { BatchGetCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/accounts/get-quota.ts';
import { rateWindowKey } from '../../../shared/db/keys.ts';
import { callAccountRoute, mockAccountRoutes, serveAccountCounters } from '../../support/account-routes.ts';
import { USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';

// NOW (10:00:00 UTC) starts a 60-second window of every rate class.
const WINDOW_START = Date.parse('2026-11-22T10:00:00.000Z');

describe('GET /v1/accounts/quota', () => {
  let ddb: ReturnType<typeof mockAccountRoutes>;
  beforeEach(() => {
    ddb = mockAccountRoutes();
    serveAccountCounters(ddb, 'acc-user', { uploads: 30 });
    ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => ({
      Responses: {
        'test-requests': input
          .RequestItems!['test-requests']!.Keys!.filter(
            (k) => k.id === rateWindowKey('acc-user', 'writes', WINDOW_START).id,
          )
          .map((k) => ({ ...k, used: 7 })),
      },
    }));
  });

  it('answers this month’s upload quota and where each request-rate window of the plan stands', async () => {
    const result = await callAccountRoute(handler, { path: '/v1/accounts/quota', apiKey: USER_KEY });

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toEqual({
      quota: 100,
      usage: 30,
      remaining: 70,
      period: '2026-11',
      resets_at: '2026-12-01T00:00:00.000Z',
      rate_limits: {
        plan: 'standard',
        writes: { limit: 600, window_seconds: 60, used: 7, remaining: 593, resets_at: '2026-11-22T10:01:00.000Z' },
        models: { limit: 60, window_seconds: 60, used: 0, remaining: 60, resets_at: '2026-11-22T10:01:00.000Z' },
      },
    });
    // Both windows in one strongly consistent read of the requests table.
    const [read] = ddb.commandCalls(BatchGetCommand);
    expect(read!.args[0].input.RequestItems!['test-requests']).toMatchObject({ ConsistentRead: true });
  });

  it('never answers a negative remaining when an administrator lowered the quota below this month’s usage', async () => {
    serveAccountCounters(ddb, 'acc-user', { uploads: 130 });

    const body = jsonBody(await callAccountRoute(handler, { path: '/v1/accounts/quota', apiKey: USER_KEY }));

    expect(body).toMatchObject({ quota: 100, usage: 130, remaining: 0 });
  });
});
