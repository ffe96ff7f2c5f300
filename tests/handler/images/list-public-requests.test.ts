import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/list-public-requests.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  ADMIN_KEY,
  aStoredRequest,
  call,
  mockPublicRequestTable,
  OWNER_KEY,
  requestItem,
} from './public-request-fixtures.ts';

const queue = (query: Record<string, string> = {}, key = ADMIN_KEY) =>
  call(handler, key, { path: '/images/public-requests', query });

describe('GET /images/public-requests', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
    ddb.on(QueryCommand).resolves({
      Items: [
        { request_id: 'req-1', image_id: 'up-1' },
        { request_id: 'req-2', image_id: 'up-2' },
      ],
    });
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'test-table': [
          requestItem(aStoredRequest()),
          // Decided between the two reads: left out.
          requestItem(aStoredRequest({ id: 'req-2', image_id: 'up-2', status: 'approved' })),
        ],
      },
    });
  });

  it('answers the pending requests of every account, oldest first, from the markers and then the requests', async () => {
    const result = await queue();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual([
      expect.objectContaining({ id: 'req-1', status: 'pending', image_url: expect.stringContaining('up-1.jpg') }),
    ]);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ExpressionAttributeValues: { ':pending': 'PUBREQS#PENDING' },
      Limit: 10,
    });
  });

  it('reads no further than the page asked for', async () => {
    await queue({ limit: '5', page: '2' });

    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.Limit).toBe(15);
  });

  it('answers 403 to an account that is not an administrator, 400 for another status', async () => {
    expect((await queue({}, OWNER_KEY)).statusCode).toBe(403);
    expect((await queue({ status: 'approved' })).statusCode).toBe(400);
  });
});
