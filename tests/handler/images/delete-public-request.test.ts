import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/delete-public-request.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockPublicRequestTable, OTHER_KEY, OWNER_KEY } from './public-request-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import { pendingPublicRequestKey, publicRequestKey } from '../../../shared/db/keys.ts';

const withdraw = (key = OWNER_KEY) =>
  call(handler, key, { method: 'DELETE', path: '/images/up-1/public-requests', pathParameters: { id: 'up-1' } });

describe('DELETE /images/{id}/public-requests', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'PUBREQ_PENDING' } } as never).resolves({
      Item: { request_id: 'req-1' },
    });
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('deletes the pending request and its marker together, only while pending, and confirms', async () => {
    const result = await withdraw();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ message: 'SUCCESS' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(allWrites(ddb)).toHaveLength(2);
    expect(writeTo(ddb, publicRequestKey('up-1', 'req-1'))).toMatchObject({
      delete: true,
      conditionValues: ['pending'],
    });
    expect(writeTo(ddb, pendingPublicRequestKey('up-1'))).toMatchObject({ delete: true, conditionValues: ['req-1'] });
  });

  it('answers 404 when nothing is pending, or when it was decided before the withdrawal landed', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(publicRequestKey('up-1', 'req-1')));
    const decided = await withdraw();
    expect(decided.statusCode).toBe(404);
    expect(jsonBody(decided).code).toBe('no_pending_public_request');

    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'PUBREQ_PENDING' } } as never).resolves({});
    expect((await withdraw()).statusCode).toBe(404);
  });

  it("answers 403 for another account's upload and writes nothing", async () => {
    expect((await withdraw(OTHER_KEY)).statusCode).toBe(403);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
