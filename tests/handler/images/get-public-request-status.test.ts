import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/get-public-request-status.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  aStoredRequest,
  call,
  mockPublicRequestTable,
  OTHER_KEY,
  OWNER_KEY,
  requestItem,
} from './public-request-fixtures.ts';

const statusOf = (key = OWNER_KEY, id = 'up-1') =>
  call(handler, key, { path: `/images/${id}/public-requests/status`, pathParameters: { id } });

describe('GET /images/{id}/public-requests/status', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
  });

  it('answers the newest request, read newest first from the image’s partition', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [requestItem(aStoredRequest({ status: 'denied', admin_message: 'Too blurry' }))],
    });

    const body = jsonBody(await statusOf());

    expect(body).toMatchObject({ id: 'req-1', status: 'denied', admin_message: 'Too blurry' });
    expect(body).not.toHaveProperty('file');
    expect(body).not.toHaveProperty('decided_by');
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      ExpressionAttributeValues: { ':pk': 'IMAGE#up-1', ':request': 'PUBREQ#' },
      ScanIndexForward: false,
      Limit: 1,
    });
  });

  it('answers status none for an image never put forward', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    expect(jsonBody(await statusOf())).toEqual({ image_id: 'up-1', status: 'none' });
  });

  it("answers 403 for another account's upload and 404 for an unknown image", async () => {
    expect((await statusOf(OTHER_KEY)).statusCode).toBe(403);
    expect((await statusOf(OWNER_KEY, 'nope')).statusCode).toBe(404);
  });
});
