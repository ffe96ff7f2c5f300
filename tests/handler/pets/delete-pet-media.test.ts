import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/delete-pet-media.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredMedia, aStoredPet, callAs, OTHER_KEY, ownerAndStranger, serveMedia, servePet } from './pet-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import { petKey, petMediaKey, petPhotoHashKey } from '../../../shared/db/keys.ts';

const s3 = mockClient(S3Client);
const remove = (key: string, petId: string, imageId: string) =>
  callAs(handler, key, {
    method: 'DELETE',
    path: `/v1/pets/${petId}/images/${imageId}`,
    pathParameters: { petId, imageId },
  });
const derived = ['pets/media/acc-user/pet-1/ph-1/display.jpg', 'pets/media/acc-user/pet-1/ph-1/thumbnail.jpg'];
const deletedObjects = () =>
  s3.commandCalls(DeleteObjectsCommand).flatMap((c) => c.args[0].input.Delete!.Objects!.map((o) => o.Key));

describe('DELETE /v1/pets/{petId}/images/{imageId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet({ photo_count: 1, video_count: 1 }));
    serveMedia(ddb, aStoredMedia());
    serveMedia(
      ddb,
      aStoredMedia({ id: 'vi-1', kind: 'video', file: 'pets/videos/acc-user/pet-1/vi-1.mp4', sha256: null }),
    );
    ddb.on(TransactWriteCommand).resolves({});
    s3.reset();
    s3.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => ({
      Contents: derived.filter((k) => k.startsWith(input.Prefix)).map((Key) => ({ Key })),
    }));
    s3.on(DeleteObjectsCommand).resolves({});
  });

  it('removes a photo, its hash and one from the pet’s count in one transaction, then its objects: 200, empty body', async () => {
    const result = await remove(USER_KEY, 'pet-1', 'ph-1');

    expect(result.statusCode).toBe(200);
    expect(result.body ?? '').toBe('');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Only while it exists (a refusal is the 404 below).
    expect(writeTo(ddb, petMediaKey('pet-1', 'ph-1'))).toMatchObject({ delete: true, conditional: true });
    // The hash goes too, so the same bytes can be added again; only if it still points at this photo.
    expect(writeTo(ddb, petPhotoHashKey('pet-1', 'a'.repeat(64)))).toMatchObject({
      delete: true,
      conditionValues: ['ph-1'],
    });
    expect(writeTo(ddb, petKey('pet-1')).update).toEqual({ photo_count: { add: -1 } });
    expect(deletedObjects().sort()).toEqual(['pets/photos/acc-user/pet-1/ph-1.jpg', ...derived].sort());
  });

  it('removes a video without touching photo hashes, counting it off video_count', async () => {
    await remove(USER_KEY, 'pet-1', 'vi-1');

    expect(allWrites(ddb).map((write) => write.key)).toEqual(
      expect.arrayContaining([petMediaKey('pet-1', 'vi-1'), petKey('pet-1')]),
    );
    expect(allWrites(ddb)).toHaveLength(2);
    expect(writeTo(ddb, petKey('pet-1')).update).toEqual({ video_count: { add: -1 } });
    expect(deletedObjects()).toContain('pets/videos/acc-user/pet-1/vi-1.mp4');
  });

  it('answers 404 when the image is gone by the time of the write (a racing delete), removing no object', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(petMediaKey('pet-1', 'ph-1')));

    const result = await remove(USER_KEY, 'pet-1', 'ph-1');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result).message).toBe('Image ph-1 does not exist');
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown pet or image, deleting nothing', async () => {
    expect((await remove(OTHER_KEY, 'pet-1', 'ph-1')).statusCode).toBe(403);
    expect((await remove(USER_KEY, 'pet-404', 'ph-1')).statusCode).toBe(404);
    expect((await remove(USER_KEY, 'pet-1', 'ph-404')).statusCode).toBe(404);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
  });
});
