// Handler-test harness of the account routes: an administrator (ADMIN_KEY) and a user (USER_KEY, acc-user) the
// mocked table authenticates, a fixed clock, calls of a route, and the account's counters as the table serves them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { accountStatsKey, uploadQuotaKey } from '../../shared/db/keys.ts';
import { setDepsForTest } from '../../shared/deps.ts';
import { ADMIN_KEY, mockDynamoWithAccounts, standardAccounts } from './fixtures.ts';
import { httpEvent, lambdaContext } from './http-event.ts';

export const NOW = new Date('2026-11-22T10:00:00.000Z');

/** What every account route test starts from (call in beforeEach); returns the mocked table. */
export function mockAccountRoutes(accounts = standardAccounts()) {
  const ddb = mockDynamoWithAccounts(accounts);
  setDepsForTest({ now: () => NOW, newId: () => 'acc-new' });
  return ddb;
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/** Calls an account route's handler, by default as the administrator, with a JSON body when given. */
export const callAccountRoute = (
  handler: Handler,
  input: {
    method?: string;
    path: string;
    pathParameters?: Record<string, string>;
    body?: unknown;
    apiKey?: string;
    headers?: Record<string, string>;
  },
) => {
  const { apiKey = ADMIN_KEY, headers, ...rest } = input;
  return handler(httpEvent({ ...rest, headers: { 'x-api-key': apiKey, ...headers } }), lambdaContext);
};

/** The mocked table serves the account's uploads this month (November 2026, NOW's month) and its counts. */
export function serveAccountCounters(
  ddb: ReturnType<typeof mockDynamoWithAccounts>,
  accountId: string,
  counters: { uploads?: number; stats?: Record<string, number> },
) {
  if (counters.uploads !== undefined)
    ddb
      .on(GetCommand, { Key: uploadQuotaKey(accountId, '2026-11') } as never)
      .resolves({ Item: { used: counters.uploads } });
  if (counters.stats)
    ddb.on(GetCommand, { Key: accountStatsKey(accountId) } as never).resolves({ Item: counters.stats });
}
