import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/deny-public-request.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  ADMIN_KEY,
  aStoredRequest,
  call,
  mockPublicRequestTable,
  NOW,
  OWNER_KEY,
  serveRequest,
} from './public-request-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import { pendingPublicRequestKey, publicRequestKey } from '../../../shared/db/keys.ts';

const deny = (body: unknown = { admin_message: 'Too blurry' }, key = ADMIN_KEY) =>
  call(handler, key, {
    method: 'POST',
    path: '/images/public-requests/req-1/deny',
    pathParameters: { requestId: 'req-1' },
    body,
  });

describe('POST /images/public-requests/{requestId}/deny', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
    serveRequest(ddb);
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('denies with the message for the owner, only from pending, and removes the marker with it', async () => {
    const result = await deny();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      status: 'denied',
      admin_message: 'Too blurry',
      tags: null,
      actioned_at: NOW.toISOString(),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(allWrites(ddb)).toHaveLength(2);
    expect(writeTo(ddb, publicRequestKey('up-1', 'req-1'))).toMatchObject({
      update: { status: 'denied', admin_message: 'Too blurry', actioned_at: NOW.toISOString() },
      conditionValues: ['pending'],
    });
    expect(writeTo(ddb, pendingPublicRequestKey('up-1'))).toMatchObject({ delete: true, conditionValues: ['req-1'] });
  });

  it('answers 409 when another administrator decided first', async () => {
    serveRequest(ddb, aStoredRequest(), { status: 'approved' });
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(publicRequestKey('up-1', 'req-1')));

    const result = await deny();

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ code: 'public_request_not_pending', status: 'approved' });
  });

  it('answers 400 without a message or with one over 500 characters, 403 to a non-administrator', async () => {
    expect((await deny({})).statusCode).toBe(400);
    expect((await deny({ admin_message: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await deny(undefined, OWNER_KEY)).statusCode).toBe(403);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
