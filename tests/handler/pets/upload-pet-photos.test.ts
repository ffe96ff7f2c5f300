import { createHash } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/upload-pet-photos.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody, lambdaContext } from '../../support/http-event.ts';
import { formEvent, multipart } from '../../support/multipart.ts';
import { aStoredPet, OTHER_KEY, ownerAndStranger, servePetTakingPhotos } from './pet-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { petKey, petMediaKey, petPhotoHashKey, petRateSlotKey, uploadQuotaKey } from '../../../shared/db/keys.ts';
import { pngClaiming } from '../../support/forged-png.ts';

const s3 = mockClient(S3Client);
const NOW = new Date('2026-11-22T10:00:00.000Z');
const photo = (seed: number) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: seed, g: 0, b: 0 } } })
    .png()
    .toBuffer();
const upload = async (key: string, petId: string, seeds: number[]) =>
  handler(
    formEvent(
      `/v1/pets/${petId}/images`,
      key,
      multipart(
        await Promise.all(seeds.map(async (s) => ({ name: 'images', filename: `${s}.png`, content: await photo(s) }))),
      ),
      { petId },
    ),
    lambdaContext,
  );

/** Rate slots as stored: `used` of them used at the given times. */
const slots = (usedAt: string[]) =>
  usedAt.map((at, slot) => ({ pk: 'PET#pet-1', sk: `RATE#${slot}`, slot, used_at: at }));

describe('POST /v1/pets/{petId}/images', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger({ quota: 1000 }));
    servePetTakingPhotos(ddb, aStoredPet());
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    let n = 0;
    setDepsForTest({ now: () => NOW, newId: () => `m-${++n}`, random: () => 0 });
  });

  it('answers 200 with one pending record per photo, carrying the pet and its hash', async () => {
    const result = await upload(USER_KEY, 'pet-1', [1, 2]);

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual([
      expect.objectContaining({
        id: 'm-1',
        pet_id: 'pet-1',
        kind: 'photo',
        status: 'pending',
        width: 8,
        duplicate: false,
      }),
      expect.objectContaining({ id: 'm-2', status: 'pending', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Both counted on the pet, only while it is the caller's.
    expect(writeTo(ddb, petKey('pet-1'))).toMatchObject({
      update: { photo_count: { add: 2 } },
      conditionValues: ['acc-user'],
    });
  });

  it('refuses the whole request with the spec 429 body when the window has too few free slots', async () => {
    const hourAgo = new Date(NOW.getTime() - 3600_000).toISOString();
    const dayAgo = new Date(NOW.getTime() - 25 * 3600_000).toISOString();
    ddb.on(QueryCommand).resolves({ Items: slots([...Array(97).fill(hourAgo), dayAgo]) });

    const result = await upload(USER_KEY, 'pet-1', [1, 2, 3, 4]);

    expect(result.statusCode).toBe(429);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'pet_upload_rate_exceeded',
      limit: 100,
      window_hours: 24,
      recent_uploads: 97,
      requested: 4,
      path: '/v1/pets/pet-1/images',
    });
    // One more slot frees when the oldest photo of the window turns 24 hours old: 23 hours from now.
    expect(result.headers!['retry-after']).toBe(String(23 * 3600));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('takes slots only on the values it read, and reads again when another request took one first', async () => {
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(conditionFailsOn(petRateSlotKey('pet-1', 0)))
      .resolves({});

    const result = await upload(USER_KEY, 'pet-1', [1]);

    expect(result.statusCode).toBe(200);
    const attempts = ddb.commandCalls(TransactWriteCommand);
    expect(attempts).toHaveLength(2);
    // The first try took the never-used slot 0 only while it was still unused.
    expect(writesTo(ddb, petRateSlotKey('pet-1', 0))[0]).toMatchObject({
      update: { used_at: NOW.toISOString() },
      conditional: true,
      conditionValues: [],
    });
  });

  it('answers 400 when the monthly quota is used up', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(uploadQuotaKey('acc-user', '2026-11')));

    const result = await upload(USER_KEY, 'pet-1', [1]);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).code).toBe('upload_quota_exceeded');
  });

  it('refuses a PNG claiming 30,000 × 30,000 pixels at once from its header, as the image upload does, writing nothing', async () => {
    const result = await handler(
      formEvent(
        '/v1/pets/pet-1/images',
        USER_KEY,
        multipart([{ name: 'images', filename: 'bomb.png', content: await pngClaiming(30_000, 30_000) }]),
        { petId: 'pet-1' },
      ),
      lambdaContext,
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ statusCode: 400, code: 'image_dimensions_too_large' });
    expect(jsonBody(result).message).toContain('30000 × 30000');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown one, before reading any file', async () => {
    expect((await upload(OTHER_KEY, 'pet-1', [1])).statusCode).toBe(403);
    expect((await upload(USER_KEY, 'pet-unknown', [1])).statusCode).toBe(404);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('gives back the record, hash, rate slot, quota and count of each photo when its bytes cannot be stored', async () => {
    s3.on(PutObjectCommand).rejects(new Error('S3 unreachable'));
    // The slot and hash the photo took, as the give-back reads them (the pet is served by servePet).
    const hash = createHash('sha256')
      .update(await photo(1))
      .digest('hex');
    ddb
      .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: `HASH#${hash}` } } as never)
      .resolves({ Item: { media_id: 'm-1' } });
    ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'RATE#000' } } as never).resolves({
      Item: { used_at: NOW.toISOString() },
    });

    const result = await upload(USER_KEY, 'pet-1', [1]);

    expect(result.statusCode).toBe(500);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    const [recorded, takenBack] = writesTo(ddb, petMediaKey('pet-1', 'm-1'));
    expect(recorded!.put).toMatchObject({
      status: 'awaiting_upload',
      rate_slot: 0,
      rate_slot_at: NOW.toISOString(),
      expiresAt: Math.floor(NOW.getTime() / 1000) + 2 * 3600,
    });
    // Taken back only while it still awaits its bytes, the slot only while this photo holds it.
    expect(takenBack).toMatchObject({ delete: true, conditionValues: ['awaiting_upload'] });
    const changes = (key: Record<string, string>) => writesTo(ddb, key).map((write) => write.update);
    expect(changes(uploadQuotaKey('acc-user', '2026-11'))).toEqual([{ used: { add: 1 } }, { used: { add: -1 } }]);
    expect(changes(petKey('pet-1'))).toEqual([{ photo_count: { add: 1 } }, { photo_count: { add: -1 } }]);
    expect(writesTo(ddb, petPhotoHashKey('pet-1', hash)).at(-1)!.delete).toBe(true);
    expect(writesTo(ddb, petRateSlotKey('pet-1', 0)).at(-1)).toMatchObject({
      delete: true,
      conditionValues: [NOW.toISOString()],
    });
  });
});
