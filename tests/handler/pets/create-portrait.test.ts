import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NEWEST_MEDIA_WINDOW } from '../../../shared/domain/pets/service.ts';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/create-portrait.ts';
import { fakeImageGenerator } from '../../../shared/adapters/image-generator/fake.ts';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { generatePortrait } from '../../../shared/domain/pets/portraits.ts';
import { GenerationRefused, type ImageGenerator } from '../../../shared/ports/image-generator.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { aStoredMedia, aStoredPet, serveMedia, servePet } from './pet-fixtures.ts';
import { allWrites, writesTo } from '../../support/dynamo-writes.ts';
import { petMediaKey } from '../../../shared/db/keys.ts';

const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);
const photoItem = aStoredMedia({ thumbnail_key: null, width: null, height: null, sha256: null });
const portraitItem = aStoredMedia({
  id: 'po-1',
  kind: 'portrait',
  status: 'pending',
  file: 'pets/media/acc-user/pet-1/po-1/portrait',
  display_key: null,
  thumbnail_key: null,
  style: 'watercolour',
  source_image_id: 'ph-1',
  generator: 'fake',
});

const request = (body: unknown) =>
  handler(
    httpEvent({
      method: 'POST',
      path: '/v1/pets/pet-1/portrait',
      headers: { 'x-api-key': USER_KEY },
      pathParameters: { petId: 'pet-1' },
      body,
    }),
    lambdaContext,
  );

describe('portraits: the request route and the generating consumer', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    process.env.PORTRAITS_QUEUE_URL = 'http://queue/portraits';
    ddb = mockDynamoWithAccounts(standardAccounts());
    servePet(ddb, aStoredPet());
    ddb.on(QueryCommand).resolves({ Items: [photoItem] });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({});
    setDepsForTest({ newId: () => 'po-1', now: () => new Date('2026-11-22T10:00:00Z') });
  });

  it('records a pending portrait of the newest ready photo and queues it', async () => {
    const result = await request({ style: 'watercolour' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      id: 'po-1',
      kind: 'portrait',
      status: 'pending',
      style: 'watercolour',
      source_image_id: 'ph-1',
      generator: 'sharp-filters',
      url: null,
    });
    // One bounded read of the pet's newest photos, not the whole gallery.
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ScanIndexForward: false,
      Limit: NEWEST_MEDIA_WINDOW,
    });
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toEqual({
      pet_id: 'pet-1',
      portrait_id: 'po-1',
    });
  });

  it('names the content type the drawing will be served as from the request on: JPEG for studio, PNG otherwise', async () => {
    const types = [];
    for (const style of ['studio', 'watercolour', 'pencil_sketch'])
      types.push(jsonBody(await request({ style })).content_type);

    expect(types).toEqual(['image/jpeg', 'image/png', 'image/png']);
  });

  describe('photos still processing', () => {
    /** A fake clock: `sleep` moves `now` on (nothing waits for real) and runs `onSleep`, so a photo can become ready. */
    let waited: number;
    let onSleep: (waited: number) => void;
    beforeEach(() => {
      waited = 0;
      onSleep = () => undefined;
      const start = Date.parse('2026-11-22T10:00:00Z');
      setDepsForTest({
        newId: () => 'po-1',
        now: () => new Date(start + waited),
        sleep: async (ms) => {
          waited += ms;
          onSleep(waited);
        },
      });
    });
    const newPhoto = aStoredMedia({ id: 'ph-2', status: 'pending', display_key: null });
    /** The pet's photos, newest first, as the table holds them at each moment. */
    const photos = (items: () => ReturnType<typeof aStoredMedia>[]) =>
      ddb.on(QueryCommand).callsFake(() => ({ Items: items() }));

    it('waits for a photo newer than the newest ready one and draws from it once ready', async () => {
      let newest = newPhoto;
      photos(() => [newest, photoItem]);
      onSleep = (ms) => {
        if (ms >= 300) newest = { ...newPhoto, status: 'ready' };
      };

      const result = await request({ style: 'studio' });

      expect(result.statusCode).toBe(200);
      expect(jsonBody(result)).toMatchObject({ status: 'pending', source_image_id: 'ph-2' });
      expect(waited).toBe(300);
    });

    it('answers 409 photos_processing with Retry-After when the pet’s only photo is still processing after the wait, writing nothing', async () => {
      photos(() => [newPhoto]);

      const result = await request({ style: 'studio' });

      expect(result.statusCode).toBe(409);
      expect(result.headers['retry-after']).toBe('2');
      expect(jsonBody(result)).toMatchObject({ statusCode: 409, code: 'photos_processing' });
      // 10 s left, 2 s kept for the write and the queue send: the 8 s cap.
      expect(waited).toBe(8_000);
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
      expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
    });

    it('draws from an older ready photo when the newer one is still processing after the wait', async () => {
      photos(() => [newPhoto, photoItem]);

      const result = await request({ style: 'studio' });

      expect(jsonBody(result)).toMatchObject({ status: 'pending', source_image_id: 'ph-1' });
    });

    it('waits for a photo named in image_ids until it is ready', async () => {
      let named = newPhoto;
      ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#ph-2' } } as never).callsFake(() => ({ Item: named }));
      onSleep = (ms) => {
        if (ms >= 700) named = { ...newPhoto, status: 'ready' };
      };

      const result = await request({ style: 'studio', image_ids: ['ph-2'] });

      expect(jsonBody(result)).toMatchObject({ status: 'pending', source_image_id: 'ph-2' });
      expect(waited).toBe(700);
    });

    it('answers 400 pet_has_no_photos at once when the pet’s photos were all rejected', async () => {
      photos(() => [{ ...newPhoto, status: 'rejected' }]);

      const result = await request({ style: 'studio' });

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result).code).toBe('pet_has_no_photos');
      expect(waited).toBe(0);
    });
  });

  it('answers 403 capability_disabled when portraits are switched off for the account, writing and queueing nothing', async () => {
    ddb = mockDynamoWithAccounts([{ apiKey: USER_KEY, account: anAccount({ disabled_capabilities: ['portraits'] }) }]);
    servePet(ddb, aStoredPet());

    const result = await request({ style: 'studio' });

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ code: 'capability_disabled', capability: 'portraits' });
    expect(jsonBody(result).message).toMatch(/'portraits'/);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('takes the record back when the queue cannot be reached', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('queue down'));

    const result = await request({ style: 'studio' });

    expect(result.statusCode).toBe(500);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    const [recorded, takenBack] = writesTo(ddb, petMediaKey('pet-1', 'po-1'));
    expect(recorded!.put).toMatchObject({ kind: 'portrait', status: 'pending' });
    expect(takenBack!.delete).toBe(true);
  });

  describe('the consumer', () => {
    const source = () =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer();
    beforeEach(async () => {
      serveMedia(ddb, portraitItem);
      serveMedia(ddb, photoItem);
      const bytes = await source();
      s3.on(GetObjectCommand).callsFake(() => ({ Body: { transformToByteArray: async () => new Uint8Array(bytes) } }));
      s3.on(PutObjectCommand).resolves({});
    });

    it('draws from the source’s served copy, stores the image and moves the portrait to ready', async () => {
      await generatePortrait(getDeps(), { pet_id: 'pet-1', portrait_id: 'po-1' }, fakeImageGenerator, 1);

      expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input.Key).toBe(photoItem.display_key);
      expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
        Key: 'pets/media/acc-user/pet-1/po-1/portrait.png',
        ContentType: 'image/png',
        ContentDisposition: 'inline; filename="po-1.png"',
      });
      // pending → ready, only from pending.
      const [ready] = writesTo(ddb, petMediaKey('pet-1', 'po-1'));
      expect(ready).toMatchObject({
        update: { status: 'ready', content_type: 'image/png' },
        conditionValues: ['pending'],
      });
    });

    it('serves a studio portrait as the JPEG its pending record named, and records the same type when ready', async () => {
      const pending = jsonBody(await request({ style: 'studio' }));
      serveMedia(ddb, { ...portraitItem, style: 'studio', content_type: pending.content_type });

      await generatePortrait(getDeps(), { pet_id: 'pet-1', portrait_id: 'po-1' }, fakeImageGenerator, 1);

      const stored = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
      const ready = writesTo(ddb, petMediaKey('pet-1', 'po-1')).at(-1)!.update!;
      expect([pending.content_type, stored.ContentType, ready.content_type]).toEqual([
        'image/jpeg',
        'image/jpeg',
        'image/jpeg',
      ]);
      expect(stored.Key).toBe('pets/media/acc-user/pet-1/po-1/portrait.jpg');
      expect((await sharp(stored.Body as Buffer).metadata()).format).toBe('jpeg');
    });

    it('rejects with the reason on a refusal, retries other failures, and rejects on the last attempt', async () => {
      const refusing: ImageGenerator = {
        name: 'x',
        generate: async () => {
          throw new GenerationRefused('blocked by filters');
        },
      };
      const failing: ImageGenerator = {
        name: 'x',
        generate: async () => {
          throw new Error('throttled');
        },
      };

      await generatePortrait(getDeps(), { pet_id: 'pet-1', portrait_id: 'po-1' }, refusing, 1);
      await expect(generatePortrait(getDeps(), { pet_id: 'pet-1', portrait_id: 'po-1' }, failing, 1)).rejects.toThrow(
        'throttled',
      );
      await generatePortrait(getDeps(), { pet_id: 'pet-1', portrait_id: 'po-1' }, failing, 3);

      const [refused, lastAttempt] = allWrites(ddb).map((write) => write.update);
      expect(refused).toMatchObject({ status: 'rejected', reason: 'blocked by filters' });
      expect(lastAttempt).toMatchObject({ status: 'rejected', reason: expect.stringContaining('failed repeatedly') });
    });
  });
});
