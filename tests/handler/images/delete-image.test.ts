import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/delete-image.ts';
import { mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredCatalogueImage, aStoredUpload, asUser, serveImages } from './image-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { transactionWrites, writeTo } from '../../support/dynamo-writes.ts';
import {
  accountStatsKey,
  imageKey,
  pendingPublicRequestKey,
  publicFacetHeadKey,
  publicSegmentKey,
} from '../../../shared/db/keys.ts';

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
    const [transaction] = ddb.commandCalls(TransactWriteCommand);
    expect(transactionWrites(transaction!.args[0].input)).toHaveLength(3);
    // Only while it is the caller's and private (a refusal is the 409 and 404 below).
    expect(writeTo(ddb, imageKey('up-1'))).toMatchObject({ delete: true, conditional: true });
    // The monthly quota counts uploads made, so deleting does not give it back (docs/decisions.md).
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ images: { add: -1 } });
    // A pending public request goes with the image (the administrators' queue forgets it).
    expect(writeTo(ddb, pendingPublicRequestKey('up-1')).delete).toBe(true);
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

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, imageKey('up-public'))).toMatchObject({ delete: true, conditional: true });
    const unplaced = { 'images.up-public': { removed: true } };
    expect(writeTo(ddb, publicSegmentKey('all', 0)).update).toEqual(unplaced);
    expect(writeTo(ddb, publicFacetHeadKey('all')).update).toEqual({ 'sizes[0]': { add: -1 }, rev: { add: 1 } });
    expect(writeTo(ddb, publicSegmentKey('breed:beagle', 2)).update).toEqual(unplaced);
    expect(writeTo(ddb, publicFacetHeadKey('breed:beagle')).update).toEqual({
      'sizes[2]': { add: -1 },
      rev: { add: 1 },
    });
    const deleted = ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!['test-table']!;
    expect(deleted.map((r) => r.DeleteRequest!.Key!.sk)).toEqual(['PUBREQ#r1', 'PUBREQ#r2']);
  });

  it('answers 409 when the image was made public between the read and the delete', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(imageKey('up-1')));
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
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(imageKey('up-1')));
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' }, ConsistentRead: true } as never).resolves({});

    const result = await deleteImage('up-1');

    expect(result.statusCode).toBe(404);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
