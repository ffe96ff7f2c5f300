import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/create-pet.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { MAX_PETS_PER_ACCOUNT } from '../../../shared/domain/pets/store.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody, lambdaContext } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { formEvent, multipart } from '../../support/multipart.ts';
import { transactionSortKeys } from './pet-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, petKey, petMediaKey, petRateSlotKey, uploadQuotaKey } from '../../../shared/db/keys.ts';
import { pngClaiming } from '../../support/forged-png.ts';

const s3 = mockClient(S3Client);
const create = (parts: Parameters<typeof multipart>[0]) =>
  handler(formEvent('/v1/pets', USER_KEY, multipart(parts)), lambdaContext);
const aWhitePhoto = () =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
const fields = (values: Record<string, string>) => Object.entries(values).map(([name, content]) => ({ name, content }));

describe('POST /v1/pets', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  let ids: number;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveReferenceData(ddb, {
      breeds: [
        aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] }),
        aBreed({ id: 'siamese', name: 'Siamese', species_id: 'cat' }),
      ],
    });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    ids = 0;
    setDepsForTest({ newId: () => `id-${++ids}`, now: () => new Date('2026-11-22T10:00:00Z'), random: () => 0 });
  });

  it('creates the pet, deriving the species from the primary breed, and counts it on the account: 201', async () => {
    const result = await create(fields({ name: 'Bella', breed_ids: 'beagle', neutered: 'false', weight_kg: '9.5' }));

    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({
      id: 'id-1',
      name: 'Bella',
      species_id: 'dog',
      breed_ids: ['beagle'],
      breeds: [{ id: 'beagle', name: 'Beagle', breed_group: 'Hound' }],
      neutered: false,
      weight_kg: 9.5,
      images: [],
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, petKey('id-1'))).toMatchObject({
      put: { gsi1pk: 'ACCOUNT#acc-user#PETS', type: 'Pet', account_id: 'acc-user' },
      conditional: true,
    });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ pets: { add: 1 } });
  });

  it('writes the pet, its photos, their hashes, rate slots and the quota in one transaction, then stores the bytes', async () => {
    const photo = await aWhitePhoto();

    const result = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'a.png', content: photo },
      { name: 'images', filename: 'b.png', content: photo },
    ]);

    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body.photo_count).toBe(1);
    expect(
      body.images.map((i: { id: string; duplicate: boolean; status: string }) => [i.id, i.duplicate, i.status]),
    ).toEqual([
      ['id-2', false, 'pending'],
      ['id-2', true, 'pending'],
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(transactionSortKeys(ddb)).toEqual([
      expect.stringMatching(/^HASH#[0-9a-f]{64}$/),
      'MEDIA#id-2',
      'PET',
      'QUOTA#2026-11',
      'RATE#000',
      'STATS',
    ]);
    // One upload of the account's 100 a month: allowed while at most 99 are used.
    expect(writeTo(ddb, uploadQuotaKey('acc-user', '2026-11'))).toMatchObject({
      update: { used: { add: 1 } },
      conditionValues: [99],
    });
    expect(s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input.Key)).toEqual([
      'pets/photos/acc-user/id-1/id-2.png',
    ]);
  });

  it('removes the new pet whole and gives its quota back when the photo bytes cannot be stored', async () => {
    s3.on(PutObjectCommand).rejects(new Error('S3 unreachable'));
    ddb.on(QueryCommand).resolves({
      Items: [
        { pk: 'PET#id-1', sk: 'MEDIA#id-2' },
        { pk: 'PET#id-1', sk: 'RATE#000' },
      ],
    });
    ddb.on(BatchWriteCommand).resolves({});
    const photo = await aWhitePhoto();

    const result = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'a.png', content: photo },
    ]);

    expect(result.statusCode).toBe(500);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(3);
    for (const key of [petKey('id-1'), petMediaKey('id-1', 'id-2'), petRateSlotKey('id-1', 0)]) {
      expect(writesTo(ddb, key).at(-1)!.delete).toBe(true);
    }
    const changes = (key: Record<string, string>) => writesTo(ddb, key).map((write) => write.update);
    expect(changes(accountStatsKey('acc-user'))).toEqual([{ pets: { add: 1 } }, { pets: { add: -1 } }]);
    expect(changes(uploadQuotaKey('acc-user', '2026-11'))).toEqual([{ used: { add: 1 } }, { used: { add: -1 } }]);
    // The quota goes back only as far as it was used.
    expect(writesTo(ddb, uploadQuotaKey('acc-user', '2026-11')).at(-1)!.conditionValues).toEqual([1]);
  });

  it('lists every problem of the profile in one 400 and writes nothing', async () => {
    const result = await create(
      fields({ name: 'X', breed_ids: 'beagle,nope,siamese', birth_date: '2026-13-01', sub_id: 'me@example.com' }),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'birth_date is not a real date',
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
      'breed_ids nope is not a known breed id',
      'breed_ids siamese is not a breed of species dog',
    ]);
    const breeds = await create(fields({ name: 'X', breed_ids: 'beagle,nope,siamese' }));
    expect(jsonBody(breeds).message).toEqual([
      'breed_ids nope is not a known breed id',
      'breed_ids siamese is not a breed of species dog',
    ]);
    const noSpecies = await create(fields({ name: 'X' }));
    expect(jsonBody(noSpecies).message).toEqual(['species_id is required (dog or cat) unless breed_ids names a breed']);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('names the unknown breed together with the problems of the other fields, in one 400', async () => {
    const result = await create(
      fields({ name: 'X', breed_ids: 'nope', birth_date: '2999-01-01', weight_kg: '-3', sub_id: 'me@example.com' }),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'birth_date must not be in the future',
      'weight_kg must be greater than 0',
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
      'breed_ids nope is not a known breed id',
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses a non-photo file by its bytes with 415 before anything is written', async () => {
    const result = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'cat.jpg', content: 'GIF? no, plain text' },
    ]);

    expect(result.statusCode).toBe(415);
    expect(jsonBody(result)).toMatchObject({
      code: 'unsupported_format',
      accepted: expect.arrayContaining(['image/jpeg']),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
  it('refuses a PNG claiming 30,000 × 30,000 pixels at once from its header, before anything is written', async () => {
    const result = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'bomb.png', content: await pngClaiming(30_000, 30_000) },
    ]);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ statusCode: 400, code: 'image_dimensions_too_large' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('refuses a pet past the account’s limit with 400 pet_limit_reached, photos or not, without retrying', async () => {
    const photo = await aWhitePhoto();
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(accountStatsKey('acc-user')));

    const bare = await create(fields({ name: 'Rex', species_id: 'dog' }));
    const withPhoto = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'a.png', content: photo },
    ]);

    for (const result of [bare, withPhoto]) {
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toMatchObject({ code: 'pet_limit_reached', limit: MAX_PETS_PER_ACCOUNT });
    }
    // Counted only while the account is under the limit.
    expect(writesTo(ddb, accountStatsKey('acc-user'))[0]).toMatchObject({
      update: { pets: { add: 1 } },
      conditionValues: [MAX_PETS_PER_ACCOUNT],
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
