import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/delete-image.ts';
import { mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredCatalogueImage, aStoredUpload, asUser, serveImages } from './image-fixtures.ts';
import { conditionFailedAt } from '../../support/dynamo-errors.ts';

const s3 = mockClient(S3Client);
const deleteImage = (id: string) =>
  asUser(handler, { method: 'DELETE', path: `/v1/images/${id}`, pathParameters: { id } });

describe('DELETE /v1/images/{id}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveImages(ddb, [
      aStoredUpload({ id: 'up-1', file: 'images/acc-user/up-1.png', upload_file: 'uploads/acc-user/up-1.png' }),
      aStoredUpload({ id: 'up-other', account_id: 'acc-other' }),
      aStoredCatalogueImage('cat-1'),
    ]);
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [] });
    s3.reset();
    s3.on(DeleteObjectCommand).resolves({});
  });

  it('removes the record and the account’s image count together, then the served copy and the original, and confirms', async () => {
    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ message: 'SUCCESS' });
    const [transaction] = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems);
    // The monthly quota counts uploads made, so deleting does not give it back (docs/decisions.md).
    expect(transaction).toMatchObject([
      {
        Delete: {
          Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' },
          ConditionExpression: 'account_id = :account AND attribute_not_exists(#public)',
          ExpressionAttributeValues: { ':account': 'acc-user' },
        },
      },
      { Update: { Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' }, ExpressionAttributeValues: { ':delta': -1 } } },
      // A pending public request goes with the image (the administrators' queue forgets it).
      { Delete: { Key: { pk: 'IMAGE#up-1', sk: 'PUBREQ_PENDING' } } },
    ]);
    expect(transaction).toHaveLength(3);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([
      'images/acc-user/up-1.png',
      'uploads/acc-user/up-1.png',
    ]);
  });

  it('takes a public image out of every facet it was placed in, in the same transaction, and its requests after', async () => {
    const placement = { all: 0, 'breed:beagle': 2 };
    serveImages(ddb, [aStoredUpload({ id: 'up-public', public: { summary: {}, placement } } as never)]);
    ddb.on(QueryCommand).resolves({
      Items: [
        { pk: 'IMAGE#up-public', sk: 'PUBREQ#r1' },
        { pk: 'IMAGE#up-public', sk: 'PUBREQ#r2' },
      ],
    });
    ddb.on(BatchWriteCommand).resolves({});

    expect((await deleteImage('up-public')).statusCode).toBe(200);

    const transaction = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(transaction[0]!.Delete!.ConditionExpression).toBe('account_id = :account AND attribute_exists(#public)');
    expect(transaction.slice(3)).toMatchObject([
      {
        Update: {
          Key: { pk: 'PUBIDX#all', sk: 'SEG#000000' },
          UpdateExpression: 'REMOVE images.#id',
          ConditionExpression: 'attribute_exists(images.#id)',
          ExpressionAttributeNames: { '#id': 'up-public' },
        },
      },
      {
        Update: {
          Key: { pk: 'PUBIDX#all', sk: 'HEAD' },
          UpdateExpression: 'SET sizes[0] = sizes[0] - :one, rev = rev + :one',
        },
      },
      { Update: { Key: { pk: 'PUBIDX#breed:beagle', sk: 'SEG#000002' } } },
      {
        Update: {
          Key: { pk: 'PUBIDX#breed:beagle', sk: 'HEAD' },
          UpdateExpression: 'SET sizes[2] = sizes[2] - :one, rev = rev + :one',
        },
      },
    ]);
    const deleted = ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!['test-table']!;
    expect(deleted.map((r) => r.DeleteRequest!.Key!.sk)).toEqual(['PUBREQ#r1', 'PUBREQ#r2']);
  });

  it('answers 409 when the image was made public between the read and the delete', async () => {
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(0, 3));
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' }, ConsistentRead: true } as never)
      .resolves({ Item: aStoredUpload({ id: 'up-1' }) });

    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result).code).toBe('image_changed');
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it("answers 403 for another account's upload and deletes nothing", async () => {
    const result = await deleteImage('up-other');

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).message).toBe('Image up-other belongs to another account');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('answers 403 for a catalogue image: it is nobody’s to delete', async () => {
    const result = await deleteImage('cat-1');

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).message).toBe('Image cat-1 is a catalogue image and cannot be deleted');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 404 for an image that does not exist', async () => {
    const result = await deleteImage('nope');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toMatchObject({ error: 'Not Found', message: 'Image nope does not exist' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 404, and leaves the object alone, when a concurrent delete removed the record first', async () => {
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(0, 3));
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' }, ConsistentRead: true } as never).resolves({});

    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(404);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
