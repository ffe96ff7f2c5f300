import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/delete-image.ts';
import { mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredCatalogueImage, aStoredUpload, asUser, conditionFailedAt, serveImages } from './image-fixtures.ts';

const s3 = mockClient(S3Client);
const deleteImage = (id: string) =>
  asUser(handler, { method: 'DELETE', path: `/v1/images/${id}`, pathParameters: { id } });

describe('DELETE /v1/images/{id}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveImages(ddb, [
      aStoredUpload({ id: 'up-1', file: 'uploads/acc-user/up-1.png' }),
      aStoredUpload({ id: 'up-other', account_id: 'acc-other' }),
      aStoredCatalogueImage('cat-1'),
    ]);
    ddb.on(TransactWriteCommand).resolves({});
    s3.reset();
    s3.on(DeleteObjectCommand).resolves({});
  });

  it('removes the record and the account’s image count together, then the stored object, and confirms', async () => {
    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ message: 'SUCCESS' });
    const [transaction] = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems);
    // The monthly quota counts uploads made, so deleting does not give it back (docs/decisions.md).
    expect(transaction).toMatchObject([
      {
        Delete: {
          Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' },
          ConditionExpression: 'account_id = :account',
          ExpressionAttributeValues: { ':account': 'acc-user' },
        },
      },
      { Update: { Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' }, ExpressionAttributeValues: { ':delta': -1 } } },
    ]);
    expect(transaction).toHaveLength(2);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual(['uploads/acc-user/up-1.png']);
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
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(0, 2));

    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(404);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
