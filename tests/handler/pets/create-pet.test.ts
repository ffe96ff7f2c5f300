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
import { conditionFailedAt } from '../../support/dynamo-errors.ts';
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
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put).toMatchObject({
      Item: { pk: 'PET#id-1', sk: 'PET', gsi1pk: 'ACCOUNT#acc-user#PETS', type: 'Pet', account_id: 'acc-user' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(items[1]!.Update).toMatchObject({ Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' } });
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
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(transactionSortKeys(ddb)).toEqual([
      'PET',
      'STATS',
      'RATE#000',
      'MEDIA#id-2',
      expect.stringMatching(/^HASH#[0-9a-f]{64}$/),
      'QUOTA#2026-11',
    ]);
    expect(items.at(-1)!.Update).toMatchObject({ ExpressionAttributeValues: { ':n': 1, ':max': 99 } });
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
    const [, removed, quota] = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems!);
    expect(removed).toMatchObject([
      { Delete: { Key: { pk: 'PET#id-1', sk: 'PET' } } },
      { Update: { Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' }, ExpressionAttributeValues: { ':delta': -1 } } },
    ]);
    const [deletes] = Object.values(ddb.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!);
    expect(deletes).toMatchObject([
      { DeleteRequest: { Key: { sk: 'MEDIA#id-2' } } },
      { DeleteRequest: { Key: { sk: 'RATE#000' } } },
    ]);
    expect(quota).toMatchObject([
      { Update: { Key: { sk: 'QUOTA#2026-11' }, ExpressionAttributeValues: { ':minus': -1, ':count': 1 } } },
    ]);
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
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(1, 6));

    const bare = await create(fields({ name: 'Rex', species_id: 'dog' }));
    const withPhoto = await create([
      ...fields({ name: 'Rex', species_id: 'dog' }),
      { name: 'images', filename: 'a.png', content: photo },
    ]);

    for (const result of [bare, withPhoto]) {
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toMatchObject({ code: 'pet_limit_reached', limit: MAX_PETS_PER_ACCOUNT });
    }
    const [first] = ddb.commandCalls(TransactWriteCommand);
    expect(first!.args[0].input.TransactItems![1]!.Update).toMatchObject({
      Key: { pk: 'ACCOUNT#acc-user', sk: 'STATS' },
      ConditionExpression: 'attribute_not_exists(#stat) OR #stat < :max',
      ExpressionAttributeValues: { ':delta': 1, ':max': MAX_PETS_PER_ACCOUNT },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
