import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/delete-pet.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { aStoredPet, callAs, OTHER_KEY, ownerAndStranger, servePet } from './pet-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, petKey } from '../../../shared/db/keys.ts';

const s3 = mockClient(S3Client);
const remove = (key: string, petId: string) =>
  callAs(handler, key, { method: 'DELETE', path: `/v1/pets/${petId}`, pathParameters: { petId } });

/** What the bucket holds under each prefix of pet-1. */
const objects: Record<string, string[]> = {
  'pets/photos/acc-user/pet-1/': ['pets/photos/acc-user/pet-1/ph-1.jpg'],
  'pets/videos/acc-user/pet-1/': ['pets/videos/acc-user/pet-1/vi-1.mp4'],
  'pets/media/acc-user/pet-1/': [
    'pets/media/acc-user/pet-1/ph-1/display.jpg',
    'pets/media/acc-user/pet-1/ph-1/thumbnail.jpg',
    'pets/media/acc-user/pet-1/vi-1/poster.jpg',
  ],
};

describe('DELETE /v1/pets/{petId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet());
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(QueryCommand).resolves({
      Items: [
        { pk: 'PET#pet-1', sk: 'MEDIA#ph-1', type: 'PetMedia' },
        { pk: 'PET#pet-1', sk: 'HASH#abc', type: 'PetPhotoHash' },
        { pk: 'PET#pet-1', sk: 'RATE#000', type: 'PetRateSlot' },
      ],
    });
    ddb.on(BatchWriteCommand).resolves({});
    s3.reset();
    s3.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => ({
      Contents: (objects[input.Prefix] ?? []).map((Key) => ({ Key })),
    }));
    s3.on(DeleteObjectsCommand).resolves({});
  });

  it('answers 200 with an empty body once the pet, its partition and every object of it are gone', async () => {
    const result = await remove(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(200);
    expect(result.body ?? '').toBe('');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Only while it is the caller's (a racing deletion is the 404 below).
    expect(writeTo(ddb, petKey('pet-1'))).toMatchObject({ delete: true, conditionValues: ['acc-user'] });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ pets: { add: -1 } });
    const batchDeleted = allWrites(ddb).filter((write) => write.delete && write.key.sk !== 'PET');
    expect(batchDeleted.map((write) => write.key.sk)).toEqual(['MEDIA#ph-1', 'HASH#abc', 'RATE#000']);
    const deletedObjects = s3
      .commandCalls(DeleteObjectsCommand)
      .flatMap((c) => c.args[0].input.Delete!.Objects!.map((o) => o.Key));
    expect(deletedObjects.sort()).toEqual(Object.values(objects).flat().sort());
  });

  it('answers 403 for another account’s pet and 404 for an unknown one, deleting nothing', async () => {
    const forbidden = await remove(OTHER_KEY, 'pet-1');
    const missing = await remove(USER_KEY, 'pet-404');

    expect(forbidden.statusCode).toBe(403);
    expect(missing.statusCode).toBe(404);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
  });

  it('answers 404 to the second of two racing deletions and leaves the rest to the first', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(petKey('pet-1')));

    const result = await remove(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(404);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
  });
});
