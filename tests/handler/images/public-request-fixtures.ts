// Handler-test helpers for the public-library routes: the owner, another account and an administrator, the owner's
// approved upload, a stored request and a call of a route (condition failures: tests/support/dynamo-errors.ts).
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { setDepsForTest } from '../../../shared/deps.ts';
import type { PublicRequestItem } from '../../../shared/domain/public-requests/request.ts';
import { ADMIN_KEY, anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, lambdaContext } from '../../support/http-event.ts';
import { aStoredUpload, serveImages } from './image-fixtures.ts';

export { ADMIN_KEY, USER_KEY as OWNER_KEY };
export const OTHER_KEY = 'live_other-test-key';
export const NOW = new Date('2026-11-24T10:00:00.000Z');

/** The owner (acc-user) with its approved upload up-1, another account and an administrator. */
export function mockPublicRequestTable() {
  const ddb = mockDynamoWithAccounts([
    { apiKey: USER_KEY, account: anAccount() },
    { apiKey: OTHER_KEY, account: anAccount({ id: 'acc-other' }) },
    { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin' }) },
  ]);
  serveUpload(ddb);
  setDepsForTest({ newId: () => 'req-new', now: () => NOW });
  return ddb;
}

/** The mocked table answers the owner's upload up-1 (approved unless overridden). */
export function serveUpload(ddb: ReturnType<typeof mockDynamoWithAccounts>, overrides: Record<string, unknown> = {}) {
  const item = aStoredUpload({ id: 'up-1', ...overrides });
  serveImages(ddb, [item]);
}

/** A pending request of up-1 by acc-user. */
export function aStoredRequest(overrides: Partial<PublicRequestItem> = {}): PublicRequestItem {
  return {
    id: 'req-1',
    image_id: 'up-1',
    account_id: 'acc-user',
    status: 'pending',
    request_message: 'Rex on the beach',
    author: 'Ana Ruiz',
    licence: 'CC-BY-4.0',
    file: 'images/acc-user/up-1.jpg',
    admin_message: null,
    tags: null,
    actioned_at: null,
    decided_by: null,
    created_at: '2026-11-24T09:00:00.000Z',
    updated_at: '2026-11-24T09:00:00.000Z',
    ...overrides,
  };
}

/** The stored request item as the table holds it. */
export const requestItem = (request: PublicRequestItem) => ({
  pk: `IMAGE#${request.image_id}`,
  sk: `PUBREQ#${request.id}`,
  gsi1pk: `PUBREQ#${request.id}`,
  gsi1sk: 'PUBREQ',
  type: 'ImagePublicRequest',
  ...request,
});

/** The mocked table finds request req-1 by id (gsi1) and, read again after a refused write, answers `afterwards`. */
export function serveRequest(
  ddb: ReturnType<typeof mockPublicRequestTable>,
  stored: PublicRequestItem = aStoredRequest(),
  afterwards?: Partial<PublicRequestItem>,
) {
  ddb.on(QueryCommand, { IndexName: 'gsi1' } as never).resolves({ Items: [requestItem(stored)] });
  ddb
    .on(GetCommand, { Key: { pk: `IMAGE#${stored.image_id}`, sk: `PUBREQ#${stored.id}` } } as never)
    .resolves(afterwards ? { Item: requestItem({ ...stored, ...afterwards }) } : {});
}

/** Calls a route: `path` below /v1, the API key, and path parameters, query or JSON body as given. */
export const call = (
  handler: (e: any, c: any) => Promise<any>,
  key: string,
  input: Omit<Parameters<typeof httpEvent>[0], 'headers'>,
) => handler(httpEvent({ ...input, path: `/v1${input.path}`, headers: { 'x-api-key': key } }), lambdaContext);
