import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../events/media/expire-uploads.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import {
  accountStatsKey,
  expiredPetMediaKey,
  expiredUploadKey,
  petKey,
  petPhotoHashKey,
  petRateSlotKey,
  uploadQuotaKey,
} from '../../../shared/db/keys.ts';

const ttlRemoval = (n: number, status = 'awaiting_upload', by: 'ttl' | 'user' = 'ttl'): DynamoDBRecord => ({
  eventName: 'REMOVE',
  ...(by === 'ttl' && { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } }),
  dynamodb: {
    SequenceNumber: String(100 + n),
    OldImage: marshall({
      pk: `IMAGE#img-${n}`,
      sk: 'IMAGE',
      type: 'Image',
      source: 'upload',
      id: `img-${n}`,
      account_id: 'acc-1',
      status,
      created_at: '2026-10-31T23:50:00.000Z',
    }) as never,
  },
});

describe('expiry of abandoned uploads', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([]);
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ now: () => new Date('2026-11-01T01:00:00Z') });
  });

  it("gives back the quota of the upload's own month and the image count, with a tombstone, in one transaction", async () => {
    expect(await handler({ Records: [ttlRemoval(1)] })).toEqual({ batchItemFailures: [] });

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(allWrites(ddb)).toHaveLength(3);
    // Only if absent: a redelivered removal finds it and gives nothing (the next test).
    expect(writeTo(ddb, expiredUploadKey('img-1'))).toMatchObject({ put: expect.anything(), conditional: true });
    expect(writeTo(ddb, uploadQuotaKey('acc-1', '2026-10')).update).toEqual({ used: { add: -1 } });
    expect(writeTo(ddb, accountStatsKey('acc-1')).update).toEqual({ images: { add: -1 } });
  });

  it('ignores deletions by callers and removals of uploads whose object arrived', async () => {
    await handler({ Records: [ttlRemoval(1, 'awaiting_upload', 'user'), ttlRemoval(2, 'approved')] });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('gives nothing twice when the stream redelivers a removal', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(expiredUploadKey('img-1')));
    expect(await handler({ Records: [ttlRemoval(1)] })).toEqual({ batchItemFailures: [] });
  });

  it('reports the record when the table cannot be reached, so the stream retries it', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('network down'));
    expect(await handler({ Records: [ttlRemoval(1), ttlRemoval(2)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '101' }],
    });
  });

  describe('of pet photos and videos', () => {
    const petMediaRemoval = (kind: 'photo' | 'video' | 'portrait'): DynamoDBRecord => ({
      eventName: 'REMOVE',
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      dynamodb: {
        SequenceNumber: '200',
        OldImage: marshall({
          pk: 'PET#pet-1',
          sk: 'MEDIA#m-1',
          type: 'PetMedia',
          id: 'm-1',
          account_id: 'acc-1',
          pet_id: 'pet-1',
          kind,
          status: 'awaiting_upload',
          file: 'pets/photos/acc-1/pet-1/m-1.jpg',
          content_type: 'image/jpeg',
          bytes: 10_000_000,
          sha256: kind === 'photo' ? 'abc' : null,
          rate_slot: kind === 'photo' ? 7 : null,
          rate_slot_at: kind === 'photo' ? '2026-10-31T23:50:00.000Z' : null,
          created_at: '2026-10-31T23:50:00.000Z',
        }) as never,
      },
    });
    const serve = (items: Record<string, Record<string, unknown> | undefined>) =>
      ddb.on(GetCommand).callsFake((input: { Key: { sk: string } }) => ({ Item: items[input.Key.sk] }));

    it('gives back quota, pet count, hash and rate slot with a tombstone outside the pet, in one transaction', async () => {
      serve({
        PET: { account_id: 'acc-1' },
        'HASH#abc': { media_id: 'm-1' },
        'RATE#007': { used_at: '2026-10-31T23:50:00.000Z' },
      });
      expect(await handler({ Records: [petMediaRemoval('photo')] })).toEqual({ batchItemFailures: [] });

      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
      expect(allWrites(ddb)).toHaveLength(5);
      expect(writeTo(ddb, expiredPetMediaKey('m-1'))).toMatchObject({ put: expect.anything(), conditional: true });
      expect(writeTo(ddb, uploadQuotaKey('acc-1', '2026-10')).update).toEqual({ used: { add: -1 } });
      expect(writeTo(ddb, petKey('pet-1')).update).toEqual({ photo_count: { add: -1 } });
      // Each only while it is still this upload's.
      expect(writeTo(ddb, petPhotoHashKey('pet-1', 'abc'))).toMatchObject({ delete: true, conditionValues: ['m-1'] });
      expect(writeTo(ddb, petRateSlotKey('pet-1', 7))).toMatchObject({
        delete: true,
        conditionValues: ['2026-10-31T23:50:00.000Z'],
      });
    });

    it("leaves what is no longer the upload's: a deleted pet, a hash or slot taken since", async () => {
      serve({ 'HASH#abc': { media_id: 'm-9' }, 'RATE#007': { used_at: '2026-11-02T00:00:00.000Z' } });
      await handler({ Records: [petMediaRemoval('photo')] });

      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
      expect(allWrites(ddb).map((write) => write.key)).toEqual(
        expect.arrayContaining([expiredPetMediaKey('m-1'), uploadQuotaKey('acc-1', '2026-10')]),
      );
      expect(allWrites(ddb)).toHaveLength(2);
    });

    it('gives back a video without hash or slot, and ignores portraits (generated, never uploaded)', async () => {
      serve({ PET: { account_id: 'acc-1' } });
      await handler({ Records: [petMediaRemoval('portrait'), petMediaRemoval('video')] });

      const calls = ddb.commandCalls(TransactWriteCommand);
      expect(calls).toHaveLength(1);
      expect(writeTo(ddb, petKey('pet-1')).update).toEqual({ video_count: { add: -1 } });
    });
  });
});
