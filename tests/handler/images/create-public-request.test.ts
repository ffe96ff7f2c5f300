import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/create-public-request.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredCatalogueImage, serveImages } from './image-fixtures.ts';
import { call, mockPublicRequestTable, NOW, OTHER_KEY, OWNER_KEY, serveUpload } from './public-request-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { imageKey, pendingPublicRequestKey, publicRequestKey } from '../../../shared/db/keys.ts';

const putForward = (body: unknown = {}, key = OWNER_KEY, id = 'up-1') =>
  call(handler, key, { method: 'POST', path: `/images/${id}/public-requests`, pathParameters: { id }, body });

describe('POST /images/{id}/public-requests', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('answers 201 with the pending request, the credit and licence asked for, and the image URL', async () => {
    const result = await putForward({ request_message: 'Rex on the beach', author: 'Ana Ruiz', licence: 'CC0-1.0' });

    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toEqual({
      id: 'req-new',
      image_id: 'up-1',
      account_id: 'acc-user',
      status: 'pending',
      request_message: 'Rex on the beach',
      author: 'Ana Ruiz',
      licence: 'CC0-1.0',
      image_url: expect.stringMatching(/\/images\/acc-user\/up-1\.jpg$/),
      admin_message: null,
      tags: null,
      actioned_at: null,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
  });

  it('writes the request and the pending marker on the conditions that the image is publishable and none waits', async () => {
    await putForward();

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Refusals on each condition: the 409 and 404 below.
    expect(writeTo(ddb, imageKey('up-1'))).toMatchObject({ check: true, conditional: true });
    expect(writeTo(ddb, pendingPublicRequestKey('up-1'))).toMatchObject({
      put: { gsi1pk: 'PUBREQS#PENDING', gsi1sk: `${NOW.toISOString()}#req-new`, request_id: 'req-new' },
      conditional: true,
    });
    expect(writeTo(ddb, publicRequestKey('up-1', 'req-new')).put).toMatchObject({
      gsi1pk: 'PUBREQ#req-new',
      type: 'ImagePublicRequest',
      licence: 'CC-BY-4.0',
      request_message: null,
      author: null,
    });
  });

  it('answers 409 naming the pending request when one waits', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(pendingPublicRequestKey('up-1')));
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'PUBREQ_PENDING' } } as never).resolves({
      Item: { request_id: 'req-earlier' },
    });

    const result = await putForward();

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ code: 'public_request_pending', request_id: 'req-earlier' });
  });

  it.each([
    [{ public: { placement: {} } }, 'image_already_public'],
    [{ status: 'pending' }, 'image_not_ready'],
    [{ status: 'rejected' }, 'image_rejected'],
  ])('answers 409 for an image that cannot go forward (%o) and writes nothing', async (state, code) => {
    serveUpload(ddb, state);

    const result = await putForward();

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result).code).toBe(code);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 404 when the image is deleted while the request is written', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(imageKey('up-1')));
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' }, ConsistentRead: true } as never).resolves({});

    expect((await putForward()).statusCode).toBe(404);
  });

  it("answers 403 for another account's upload or a catalogue image, 404 for an unknown image", async () => {
    serveImages(ddb, [aStoredCatalogueImage('cat-1')]);
    expect((await putForward({}, OTHER_KEY)).statusCode).toBe(403);
    expect((await putForward({}, OWNER_KEY, 'cat-1')).statusCode).toBe(403);
    expect((await putForward({}, OWNER_KEY, 'nope')).statusCode).toBe(404);
  });

  it('answers 400 for a message over 500 characters, an unknown licence or field', async () => {
    for (const body of [{ request_message: 'x'.repeat(501) }, { licence: 'MIT' }, { tags: [] }]) {
      const result = await putForward(body);
      expect(result.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
